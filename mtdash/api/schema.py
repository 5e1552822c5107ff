"""How the OpenAPI schema describes mtdash's token authentication."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class TokenScheme(OpenApiAuthenticationExtension):
    target_class = "mtdash.api.authentication.TokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "Token-based authentication: `Authorization: Token <key>`; "
            "create a key on /account/tokens/ or with "
            "`python manage.py create_api_token USERNAME`.",
        }
