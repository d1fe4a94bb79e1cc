"""A client's mistake in the log: one warning line, never a traceback.

Django logs a request it refuses for the client's fault with the exception attached: the
``SuspiciousOperation`` family (too many fields or files, a body too big, a ``Host`` not
allowed, a bad multipart body) at ERROR on ``django.security.<name>``, a body it cannot
parse or a ``BadRequest`` at WARNING on ``django.request``. So one client posting 10 000
fields wrote a traceback that reads like a fault of the server's. Every such record carries
the response's ``status_code`` (``django.utils.log.log_response``);
:class:`ClientErrorsAsWarnings`, the filter of the console handler in ``settings.LOGGING``,
turns a record of a 4xx answer into one WARNING line (the status, the exception's name,
the method and path, Django's message) without the traceback. A 5xx keeps its level and
traceback, and a record without a status is left alone.

The filter changes the record in place (Python 3.11 has no filters that return a copy), so
it belongs on the one handler every record reaches: the settings send Django's records
there rather than to Django's own console and e-mail handlers.
"""

from __future__ import annotations

import logging

from django.http import HttpRequest


class ClientErrorsAsWarnings(logging.Filter):
    """A record of a 4xx answer becomes one WARNING line without a traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if not isinstance(status, int) or not 400 <= status < 500:
            return True
        if record.levelno <= logging.WARNING and not record.exc_info:
            return True  # already a warning of one line ("Not Found: /nowhere/")
        if not logging.getLogger(record.name).isEnabledFor(logging.WARNING):
            return False  # a warning nobody asked to see
        record.msg, record.args = one_line(record, status), ()
        record.levelno, record.levelname = logging.WARNING, logging.getLevelName(logging.WARNING)
        record.exc_info = record.exc_text = record.stack_info = None
        return True


def one_line(record: logging.LogRecord, status: int) -> str:
    """``400 TooManyFieldsSent POST /practice/: The number of GET/POST parameters …``,
    with anything that could break the line (a path's ``%0A``) escaped."""
    exception = record.exc_info[1] if record.exc_info else None
    message = record.getMessage()
    if exception is not None and str(exception) not in message:
        message = f"{message} ({exception})"
    words = [str(status)]
    if exception is not None:
        words.append(type(exception).__name__)
    request = getattr(record, "request", None)
    if isinstance(request, HttpRequest):
        words += [str(request.method), request.path]
    line = f"{' '.join(words)}: {message}"
    return "".join(char if char.isprintable() else ascii(char)[1:-1] for char in line)
