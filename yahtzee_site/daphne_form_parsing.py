"""Each POST's body read once: by Django, not also by Twisted under daphne.

Daphne hands the raw body of a request to the application. Twisted's ``http.Request``,
which daphne's requests are built on, also parses every form POST into ``request.args``
(which daphne never reads), and parses its ``Content-Type`` through the ``email``
package, which builds new header classes for each request, leaving garbage behind.
:func:`install` makes daphne's requests skip that parse (measured in
``docs/benchmarks.md``). Nothing else about a request changes: the body, headers and
errors reach Django as before.
"""

from typing import Any

from daphne import http_protocol


class RequestWithUnparsedForm(http_protocol.WebRequest):
    """Daphne's request, leaving the form in the body for the application to parse."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._parsePOSTFormSubmission = False


def install() -> None:
    """Build daphne's requests of this process from :class:`RequestWithUnparsedForm` (its
    HTTP factory looks the class up in its module for each new connection)."""
    http_protocol.WebRequest = RequestWithUnparsedForm
