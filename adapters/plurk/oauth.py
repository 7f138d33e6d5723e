"""OAuth 1.0a HMAC-SHA1 signing of Plurk calls with oauthlib.

Why not PyPI ``plurk-oauth``: 0.9.2 (2017) is synchronous, wraps the abandoned
``oauth2`` package and fails to import on Python >= 3.12 (docs/plurk.md).
oauthlib only computes signatures, so it sits cleanly on aiohttp.

Every Plurk call is a form-encoded POST; oauthlib signs the form parameters
together with the ``oauth_*`` ones and puts the latter in the
``Authorization`` header. The one multipart call, ``Timeline/uploadPicture``, is
signed over the ``oauth_*`` parameters only (PLURK.md; OAuth 1.0a signs a body
only when it is form-encoded): :func:`sign` with ``body=None``.
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import quote, urlencode

from oauthlib.oauth1 import Client

from adapters.logs import protect_secrets_in_logs

FORM_CONTENT_TYPE = "application/x-www-form-urlencoded"

# oauthlib logs every signed parameter at DEBUG (the access token, the text of a
# private plurk): muted here on import, as adapters/logs.py does for the others.
protect_secrets_in_logs()

ParamValue = str | int | float | bool


def encode_form(params: Mapping[str, ParamValue] | None) -> str:
    """Form-encode parameters with RFC 3986 quoting (``%20``, not ``+``).

    Using the same quoting that OAuth uses for its base string leaves no room
    for the client and Plurk to disagree on what was signed.
    """
    if not params:
        return ""
    items = [(key, _stringify(value)) for key, value in params.items()]
    return urlencode(items, quote_via=quote, safe="")


def _stringify(value: ParamValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def sign(
    url: str,
    body: str | None,
    *,
    client_key: str,
    client_secret: str,
    token: str | None = None,
    token_secret: str | None = None,
    verifier: str | None = None,
    callback_uri: str | None = None,
) -> dict[str, str]:
    """Return the headers (``Authorization``, ``Content-Type``) for a signed POST; with
    ``body`` None (a multipart upload) only ``Authorization``: the caller's HTTP
    client sets the multipart ``Content-Type`` with its boundary."""
    client = Client(
        client_key,
        client_secret=client_secret,
        resource_owner_key=token,
        resource_owner_secret=token_secret,
        verifier=verifier,
        callback_uri=callback_uri,
    )
    if body is None:
        _uri, signed_headers, _body = client.sign(url, http_method="POST")
        return {"Authorization": signed_headers["Authorization"]}
    headers = {"Content-Type": FORM_CONTENT_TYPE}
    _uri, signed_headers, _body = client.sign(url, http_method="POST", body=body, headers=headers)
    return dict(signed_headers)
