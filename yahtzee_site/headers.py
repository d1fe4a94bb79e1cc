"""The ``Permissions-Policy`` header: which browser features the site's pages may use.

Django sets the other security headers itself (``SecurityMiddleware``: HSTS, nosniff,
referrer policy; ``XFrameOptionsMiddleware``) and django-csp the Content Security Policy;
this middleware adds the one they leave out, from ``settings.PERMISSIONS_POLICY``: a
feature mapped to ``[]`` is off for every origin, ``["self"]`` allows this site only.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase

HEADER = "Permissions-Policy"


def policy_header(policy: dict[str, list[str]]) -> str:
    """``{"camera": [], "clipboard-write": ["self"]}`` -> ``camera=(), clipboard-write=(self)``."""
    return ", ".join(f"{feature}=({' '.join(allowed)})" for feature, allowed in policy.items())


class PermissionsPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response
        self.header = policy_header(getattr(settings, "PERMISSIONS_POLICY", {}))

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if self.header:
            response.headers.setdefault(HEADER, self.header)
        return response
