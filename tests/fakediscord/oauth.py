"""Discord's OAuth2 for an Activity, as the fake plays it: codes, the token exchange, Bearer tokens.

The page's ``authorize`` (the SDK, or its mock in the tests) gets a code for a user:
`fake.authorization_code(user)`. The server trades it at `POST /api/v10/oauth2/token` (form
fields `client_id`, `client_secret`, `grant_type=authorization_code`, `code`; each code once,
within 10 minutes, only with the application's `fake.client_secret`) for an access token, and
asks `GET /api/v10/users/@me` with `Authorization: Bearer <token>` who it is. The token route is
not in Discord's OpenAPI description, so it is served here beside the checked routes; `/users/@me`
is the documented route, answered for the token's user instead of the bot.

`fake.access_token(user)` issues a token directly; `fake.revoke(token)` ends one;
`fake.bearer_checks` counts the `/users/@me` calls made with Bearer tokens.

Activity instances (everyone who opened the Activity in one channel): `fake.launch_activity(channel,
*users)` returns a new instance id, `fake.join_activity(instance_id, user)` /
`fake.leave_activity(...)` change who is in it; a LAUNCH_ACTIVITY callback (type 12, an app with
Activities enabled: `fake.enable_activities()`) opens or joins the instance of the interaction's
channel for its user (`fake.open_activity`); the bot asks
`GET /applications/{id}/activity-instances/{instance_id}` (rest.py), counted in `instance_checks`.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from aiohttp import web

if TYPE_CHECKING:
    from .models import User

CODE_SECONDS = 600.0
TOKEN_SECONDS = 604800  # Discord's access tokens last a week


class OAuth:
    """Mixed into FakeDiscord."""

    client_secret: str
    application_id: int
    _codes: dict[str, tuple[int, float]]
    _access: dict[str, int]
    bearer_checks: int
    activity_instances: dict[str, dict[str, Any]]
    instance_checks: int

    def _init_oauth(self) -> None:
        self.activity_instances = {}
        self.instance_checks = 0
        self.client_secret = secrets.token_urlsafe(24)
        self._codes = {}
        self._access = {}
        self.bearer_checks = 0

    def authorization_code(self, user: User) -> str:
        """What the SDK's ``authorize`` gives the page of ``user`` (traded once for a token)."""
        code = secrets.token_urlsafe(18)
        self._codes[code] = (user.id, self.now() + CODE_SECONDS)  # type: ignore[attr-defined]
        return code

    def access_token(self, user: User) -> str:
        token = secrets.token_urlsafe(24)
        self._access[token] = user.id
        return token

    def launch_activity(self, channel: Any, *users: User) -> str:
        """Someone opened the Activity in ``channel``: a new instance, with ``users`` in it."""
        instance_id = f"i-{secrets.token_hex(8)}-gc-{channel.guild_id or 0}-{channel.id}"
        guild = channel.guild_id
        location = {
            "id": f"{'gc' if guild else 'pc'}-{channel.id}",
            "kind": "gc" if guild else "pc",
            "channel_id": str(channel.id),
            **({"guild_id": str(guild)} if guild else {}),
        }
        self.activity_instances[instance_id] = {
            "application_id": str(self.application_id),
            "instance_id": instance_id,
            "launch_id": str(secrets.randbits(60)),
            "location": location,
            "users": [str(u.id) for u in users],
        }
        return instance_id

    def open_activity(self, channel: Any, user: User) -> str:
        """What a LAUNCH_ACTIVITY callback does for ``user``: join the app's instance in
        ``channel`` if there is one (one instance of an app per place), else launch one."""
        for instance_id, instance in self.activity_instances.items():
            if instance["location"]["channel_id"] == str(channel.id):
                self.join_activity(instance_id, user)
                return instance_id
        return self.launch_activity(channel, user)

    def activities_enabled(self) -> bool:
        """Activities are on in the Developer Portal: the app has its entry point command."""
        return any(c["type"] == 4 for c in self.global_commands)  # type: ignore[attr-defined]

    def join_activity(self, instance_id: str, user: User) -> None:
        users = self.activity_instances[instance_id]["users"]
        if str(user.id) not in users:
            users.append(str(user.id))

    def leave_activity(self, instance_id: str, user: User) -> None:
        users = self.activity_instances[instance_id]["users"]
        if str(user.id) in users:
            users.remove(str(user.id))

    def revoke(self, token: str) -> None:
        self._access.pop(token, None)

    def bearer_user(self, header: str) -> User | None:
        scheme, _, token = header.partition(" ")
        if scheme != "Bearer":
            return None
        user_id = self._access.get(token.strip())
        return None if user_id is None else self.users.get(user_id)  # type: ignore[attr-defined]

    async def _handle_oauth_token(self, request: web.Request) -> web.Response:
        form = await request.post()
        bad = {"error": "invalid_grant", "error_description": 'Invalid "code" in request.'}
        if (
            form.get("client_id") != str(self.application_id)
            or form.get("client_secret") != self.client_secret
        ):
            return web.json_response({"error": "invalid_client"}, status=401)
        if form.get("grant_type") != "authorization_code":
            return web.json_response({"error": "unsupported_grant_type"}, status=400)
        found = self._codes.pop(str(form.get("code", "")), None)
        if found is None or self.now() > found[1]:  # type: ignore[attr-defined]
            return web.json_response(bad, status=400)
        user = self.users[found[0]]  # type: ignore[attr-defined]
        body: dict[str, Any] = {
            "access_token": self.access_token(user),
            "token_type": "Bearer",
            "expires_in": TOKEN_SECONDS,
            "refresh_token": secrets.token_urlsafe(24),
            "scope": "identify",
        }
        return web.json_response(body)
