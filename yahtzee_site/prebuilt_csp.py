"""django-csp's middleware, with the site's policy built once per process.

django-csp builds the ``Content-Security-Policy`` header from the settings on every
response: every directive merged with its default, copied and joined (what that costs a
move: ``docs/benchmarks.md``). A response whose policy no view
changed (django-csp's ``@csp_update`` and the like) and whose page asked for no nonce gets
exactly the settings' policy, so that string is built once and reused; any other response
is left to django-csp. The prebuilt headers are dropped when the settings change (tests).
"""

from __future__ import annotations

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject, CSPMiddleware, PolicyParts
from csp.utils import build_policy
from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponseBase

# Each header: the response attribute that exempts a response from it, and its setting.
_HEADERS = (
    (HEADER, "_csp_exempt", "CONTENT_SECURITY_POLICY"),
    (HEADER_REPORT_ONLY, "_csp_exempt_ro", "CONTENT_SECURITY_POLICY_REPORT_ONLY"),
)
_prebuilt: dict[str, str] = {}


@receiver(setting_changed)
def _forget(*, setting: str, **kwargs: object) -> None:
    if setting.startswith("CONTENT_SECURITY_POLICY"):
        _prebuilt.clear()


def _policy(header: str) -> str:
    """The settings' policy for ``header`` ("" if none is set)."""
    value = _prebuilt.get(header)
    if value is None:
        value = _prebuilt[header] = build_policy(report_only=header == HEADER_REPORT_ONLY)
    return value


class PrebuiltCSPMiddleware(CSPMiddleware):
    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        plain = PolicyParts()
        if (
            self.get_policy_parts(request, response) != plain
            or self.get_policy_parts(request, response, report_only=True) != plain
        ):
            return super().process_response(request, response)  # a policy of its own
        if response.status_code in (500, 404) and settings.DEBUG:
            return response  # as django-csp: Django's debug pages keep their inline code
        for header, exempt, setting in _HEADERS:
            value = _policy(header)
            if not value or header in response or getattr(response, exempt, False) is not False:
                continue
            excluded = (getattr(settings, setting, None) or {}).get("EXCLUDE_URL_PREFIXES")
            if not request.path_info.startswith(tuple(excluded or ())):
                response[header] = value
        # As django-csp: a nonce asked for after the header is written is an error.
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)  # type: ignore[attr-defined]
        return response
