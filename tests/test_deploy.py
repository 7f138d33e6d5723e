"""The server layout (issue 16, item 1; issue 25, item 4): docker-compose.yml, the Dockerfile,
.env.example and NapCat's config (deploy/napcat/), checked against the bot's own settings and
pyproject.toml: NapCat only in the `qq` profile (no QQ variable needed without it), only the
bot's own settings in its container, every image pinned to a release.

No container runs here (no Docker engine on the test machines): the compose file is validated
against the Compose Specification's JSON schema (the copy check-jsonschema ships) and, where a
`docker compose` exists, by `docker compose config`; then it is interpolated the way compose
does with made-up secrets, and the bot's real `Settings` class is built from the environment its
container would get.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml
from packaging.specifiers import SpecifierSet
from pydantic import BaseModel, SecretStr
from setuptools import find_packages
from sqlalchemy.engine import make_url

from adapters.config import Settings

ROOT = Path(__file__).resolve().parents[1]
COMPOSE_FILE = ROOT / "docker-compose.yml"
DOCKERFILE = ROOT / "Dockerfile"
ENV_EXAMPLE = ROOT / ".env.example"
NAPCAT_DIR = ROOT / "deploy" / "napcat"
NAPCAT_TEMPLATE = NAPCAT_DIR / "onebot11.json"
NAPCAT_CONFIGURE = NAPCAT_DIR / "configure.py"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))

# What an operator would type into .env: made up, of the recommended form (letters, digits).
SECRETS = {
    "POSTGRES_PASSWORD": "pw4postgres7test",
    "TRPGBOT_ONEBOT__ACCESS_TOKEN": "tok3onebot9test",
    "NAPCAT_WEBUI_TOKEN": "webui5token2test",
}
QQ_NUMBER = "2854196310"
QQ_PROFILE = "qq"
SCALE_PROFILE = "scale"
# What an operator adds to .env.example's active lines to run QQ (docs/operations.md).
QQ_ON = SECRETS | {"COMPOSE_PROFILES": QQ_PROFILE, "TRPGBOT_ONEBOT__ENABLED": "true",
                   "NAPCAT_ACCOUNT": QQ_NUMBER}
# ...and to run Discord alone: no QQ variable at all.
DISCORD_ONLY = {"POSTGRES_PASSWORD": SECRETS["POSTGRES_PASSWORD"],
                "TRPGBOT_DISCORD__ENABLED": "true", "TRPGBOT_DISCORD__TOKEN": "dis4cord8test"}
LONG_RUNNING = ("bot", "postgres", "napcat")
FIXED_BY_THE_IMAGE = {"TRPGBOT_DATA_DIR"}
SECRET_NAME = re.compile(r"TOKEN|PASSWORD|SECRET|_KEY$|^KEY", re.IGNORECASE)
REFERENCE = re.compile(
    r"\$(?:\$|\{(?P<braced>[A-Za-z_][A-Za-z0-9_]*)(?:(?P<op>:?[-?+])(?P<arg>[^}]*))?\}"
    r"|(?P<plain>[A-Za-z_][A-Za-z0-9_]*))")
WHOLE_REFERENCE = re.compile(r"^\$\{[A-Za-z_][A-Za-z0-9_]*(?::?[?-][^}]*)?\}$")


# --- helpers -----------------------------------------------------------------------------

def setting_fields(model: type[BaseModel] = Settings, prefix: str | None = None
                   ) -> dict[str, tuple[str, ...]]:
    """Every environment name the bot reads -> the attribute path of its field, derived from
    the Settings classes (prefix and nesting delimiter from Settings.model_config)."""
    config = Settings.model_config
    if prefix is None:
        prefix = config["env_prefix"]
    found: dict[str, tuple[str, ...]] = {}
    for name, field in model.model_fields.items():
        kind = field.annotation
        if isinstance(kind, type) and issubclass(kind, BaseModel):
            nested = setting_fields(kind, f"{prefix}{name.upper()}{config['env_nested_delimiter']}")
            found |= {env: (name, *path) for env, path in nested.items()}
        else:
            found[f"{prefix}{name.upper()}"] = (name,)
    return found


def compose() -> dict[str, Any]:
    return yaml.safe_load(COMPOSE_FILE.read_text("utf-8"))


def strings(node: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], str]]:
    """Every string value of a YAML tree with its path."""
    if isinstance(node, Mapping):
        for key, value in node.items():
            yield from strings(value, (*path, str(key)))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from strings(value, (*path, str(index)))
    elif isinstance(node, str):
        yield path, node


class MissingVariable(Exception):
    pass


def interpolate(text: str, env: Mapping[str, str]) -> str:
    """Compose's interpolation: ${VAR}, $VAR, ${VAR:-default}, ${VAR-default},
    ${VAR:?error}, ${VAR?error}, ${VAR:+alt}, ${VAR+alt}, $$ (no nesting: the file has none)."""
    def one(match: re.Match[str]) -> str:
        if match.group(0) == "$$":
            return "$"
        name = match["braced"] or match["plain"]
        op, arg, value = match["op"], match["arg"] or "", env.get(name)
        empty = not value
        if op == ":-":
            return arg if empty else value
        if op == "-":
            return arg if value is None else value
        if op in (":?", "?") and (empty if op == ":?" else value is None):
            raise MissingVariable(f"{name}: {arg}")
        if op == ":+":
            return "" if empty else arg
        if op == "+":
            return "" if value is None else arg
        return value or ""
    return REFERENCE.sub(one, text)


def resolve(node: Any, env: Mapping[str, str]) -> Any:
    if isinstance(node, Mapping):
        return {key: resolve(value, env) for key, value in node.items()}
    if isinstance(node, list):
        return [resolve(value, env) for value in node]
    if isinstance(node, str):
        return interpolate(node, env)
    return node


def references(node: Any) -> list[tuple[str, str | None, str]]:
    """(name, operator, argument) of every variable the compose file reads."""
    return [(m["braced"] or m["plain"], m["op"], m["arg"] or "")
            for _, text in strings(node) for m in REFERENCE.finditer(text)
            if m.group(0) != "$$"]


def env_example() -> list[tuple[str, str, bool]]:
    """(name, value, commented) of each `NAME=value` / `# NAME=value` line of .env.example."""
    lines = []
    for line in ENV_EXAMPLE.read_text("utf-8").splitlines():
        match = re.fullmatch(r"(#\s*)?([A-Z][A-Z0-9_]*)=(.*)", line.strip())
        if match:
            value = match[3].strip()
            if len(value) >= 2 and value[0] == value[-1] == "'":
                value = value[1:-1]
            lines.append((match[2], value, bool(match[1])))
    return lines


def operator_env(changes: Mapping[str, str] = QQ_ON) -> dict[str, str]:
    """The .env of an operator who copied .env.example and made ``changes`` (by default:
    QQ turned on, with every secret filled in)."""
    env = {name: value for name, value, commented in env_example() if not commented}
    return env | dict(changes)


def environment(service: Mapping[str, Any]) -> dict[str, Any]:
    env = service.get("environment") or {}
    if isinstance(env, list):
        return dict(item.split("=", 1) if "=" in item else (item, None) for item in env)
    return dict(env)


def dockerfile() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of the Dockerfile, continuation lines joined."""
    instructions: list[tuple[str, str]] = []
    pending = ""
    for raw in DOCKERFILE.read_text("utf-8").splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if line.startswith("#"):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        word, _, rest = (pending + line).partition(" ")
        instructions.append((word.upper(), rest.strip()))
        pending = ""
    return instructions


def final_stage() -> list[tuple[str, str]]:
    steps = dockerfile()
    start = max(i for i, (word, _) in enumerate(steps) if word == "FROM")
    return steps[start:]


def dockerfile_env() -> dict[str, str]:
    return dict(pair.split("=", 1) for word, args in final_stage() if word == "ENV"
                for pair in shlex.split(args))


def settings_from(env: Mapping[str, str], monkeypatch: pytest.MonkeyPatch) -> Settings:
    """The bot's Settings as its container would build them from ``env``."""
    for name in list(os.environ):
        if name.upper().startswith(Settings.model_config["env_prefix"]):
            monkeypatch.delenv(name)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return Settings(_env_file=None)


def field_value(settings: Settings, path: tuple[str, ...]) -> Any:
    value: Any = settings
    for part in path:
        value = getattr(value, part)
    return value.get_secret_value() if isinstance(value, SecretStr) else value


def bot_container_env(env: Mapping[str, str], name: str = "bot") -> dict[str, str]:
    """What `docker compose up` hands the bot's container (``name``: bot-2 for the
    second process) with the .env ``env``: the image's ENV, then the service's
    `environment` (later wins), where a name without a value takes the .env's value if
    it has one and is left out otherwise."""
    service = resolve(compose(), env)["services"][name]
    container = dict(dockerfile_env())
    for name, value in environment(service).items():
        if value is not None:
            container[name] = value
        elif name in env:
            container[name] = env[name]
    return container


def active_services(env: Mapping[str, str]) -> set[str]:
    """The services `docker compose up` starts with ``env``'s COMPOSE_PROFILES."""
    profiles = set(filter(None, env.get("COMPOSE_PROFILES", "").split(",")))
    return {name for name, service in compose()["services"].items()
            if not service.get("profiles") or profiles & set(service["profiles"])}


def run_configure(config_dir: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """configure.py with QQ on and the WebUI token set, unless ``env`` says otherwise."""
    qq_on = {"TRPGBOT_ONEBOT__ENABLED": "true",
             "NAPCAT_WEBUI_TOKEN": SECRETS["NAPCAT_WEBUI_TOKEN"]}
    return subprocess.run(
        [sys.executable, str(NAPCAT_CONFIGURE), str(NAPCAT_TEMPLATE), str(config_dir)],
        env={"PATH": os.environ.get("PATH", ""), **qq_on, **env}, capture_output=True,
        text=True, timeout=60, check=False)


# --- the compose file is valid -------------------------------------------------------------

def test_compose_file_follows_the_compose_specification(tmp_path: Path) -> None:
    pytest.importorskip("check_jsonschema")
    command = [sys.executable, "-m", "check_jsonschema", "--builtin-schema",
               "vendor.compose-spec"]
    result = subprocess.run([*command, str(COMPOSE_FILE)], capture_output=True, text=True,
                            timeout=120, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    # The schema is really applied: a misspelt key fails.
    broken = compose()
    broken["services"]["bot"]["restrat"] = broken["services"]["bot"].pop("restart")
    (tmp_path / "broken.yml").write_text(yaml.safe_dump(broken), "utf-8")
    result = subprocess.run([*command, str(tmp_path / "broken.yml")], capture_output=True,
                            text=True, timeout=120, check=False)
    assert result.returncode != 0


def test_docker_compose_config_accepts_the_file(tmp_path: Path) -> None:
    docker = shutil.which("docker")
    probe = (subprocess.run([docker, "compose", "version"], capture_output=True, timeout=60,
                            check=False) if docker else None)
    if probe is None or probe.returncode != 0:
        pytest.skip("no `docker compose` on this machine (the schema test covers the file)")
    shutil.copy(COMPOSE_FILE, tmp_path / "docker-compose.yml")
    for changes in (QQ_ON, DISCORD_ONLY):
        (tmp_path / ".env").write_text(
            "".join(f"{name}={value}\n" for name, value in operator_env(changes).items()),
            "utf-8")
        result = subprocess.run([docker, "compose", "config", "--quiet"], cwd=tmp_path,
                                capture_output=True, text=True, timeout=120, check=False)
        assert result.returncode == 0, result.stderr


def test_compose_fails_without_the_required_secrets() -> None:
    required = {name for name, op, _ in references(compose()) if op in (":?", "?")}
    assert required == {"POSTGRES_PASSWORD"}  # the QQ ones are napcat-config's to check
    for name in required:
        env = {key: value for key, value in operator_env().items() if key != name}
        with pytest.raises(MissingVariable, match=name):
            resolve(compose(), env)


# --- every setting reaches the bot ---------------------------------------------------------

def test_every_setting_of_the_bot_is_wired() -> None:
    fields = setting_fields()
    assert len(fields) > 40  # the walk found the sections, not only the top level
    bot = compose()["services"]["bot"]
    prefix = Settings.model_config["env_prefix"]
    # Not the whole .env (the database password, NapCat's WebUI token): no env_file...
    assert "env_file" not in bot
    # ...but every setting by its name: the few this layout fixes with their value, every
    # other one (but the image's data directory) passed on from .env when it is set there.
    env = environment(bot)
    assert sorted(name for name in env if not name.startswith(prefix)) == []
    assert sorted(set(env) - set(fields)) == []  # no misspelt name
    fixed = {name for name, value in env.items() if value is not None}
    assert fixed == {"TRPGBOT_DATABASE_URL", "TRPGBOT_ONEBOT__HOST", "TRPGBOT_ONEBOT__PORT"}
    passed_on = {name for name, value in env.items() if value is None}
    assert sorted(set(fields) - fixed - FIXED_BY_THE_IMAGE - passed_on) == []
    assert set(dockerfile_env()) >= FIXED_BY_THE_IMAGE
    # .env.example lists every setting exactly once, and nothing else of that prefix.
    names = [name for name, _, _ in env_example()]
    listed = [name for name in names if name.startswith(prefix)]
    assert sorted(set(fields) - set(listed)) == []
    assert sorted(set(listed) - set(fields)) == []
    assert len(names) == len(set(names))
    # Every variable the compose file reads is explained there; the required ones are lines
    # to fill in (not commented out).
    refs = references(compose())
    assert sorted({name for name, _, _ in refs} - set(names)) == []
    active = {name for name, _, commented in env_example() if not commented}
    assert {name for name, op, _ in refs if op in (":?", "?")} <= active


def test_env_example_is_a_valid_configuration_with_the_true_defaults(
        monkeypatch: pytest.MonkeyPatch) -> None:
    fields = setting_fields()
    defaults = settings_from({}, monkeypatch)
    lines = [(name, value, commented) for name, value, commented in env_example()
             if name in fields]
    # The active lines, as copied, start the bot (no empty number or boolean)...
    active = {name: value for name, value, commented in lines if not commented}
    copied = settings_from(active | SECRETS, monkeypatch)
    # ...with every platform off, as the defaults are.
    for platform in ("onebot", "discord", "plurk"):
        assert getattr(copied, platform).enabled is False, platform
        assert getattr(defaults, platform).enabled is False, platform
    # A commented line shows the default: uncommenting it changes nothing.
    for name, value, commented in lines:
        if commented and value:
            changed = settings_from({name: value}, monkeypatch)
            assert field_value(changed, fields[name]) == field_value(defaults, fields[name]), name


def test_the_bot_container_gets_a_working_configuration(
        monkeypatch: pytest.MonkeyPatch) -> None:
    spec = resolve(compose(), operator_env())
    container = bot_container_env(operator_env())
    assert not {"POSTGRES_PASSWORD", "NAPCAT_WEBUI_TOKEN", "NAPCAT_ACCOUNT",
                "COMPOSE_PROFILES"} & set(container)
    settings = settings_from(container, monkeypatch)
    # PostgreSQL: the compose service, its user, password and database.
    url = make_url(settings.resolved_database_url())
    postgres = environment(spec["services"]["postgres"])
    assert url.drivername == "postgresql+asyncpg"
    assert "postgres" in PYPROJECT["project"]["optional-dependencies"]  # installs asyncpg
    assert url.host in spec["services"]
    assert "postgres" in spec["services"][url.host]["image"]
    assert (url.username, url.password, url.database) == (
        postgres["POSTGRES_USER"], SECRETS["POSTGRES_PASSWORD"], postgres["POSTGRES_DB"])
    assert url.port in (None, 5432)
    # QQ: on, listening on every address of the compose network, with the token.
    assert settings.onebot.enabled
    assert settings.onebot.host == "0.0.0.0"
    assert settings.onebot.access_token is not None
    assert settings.onebot.access_token.get_secret_value() == SECRETS[
        "TRPGBOT_ONEBOT__ACCESS_TOKEN"]
    # Discord and Plurk: off until .env turns them on.
    assert not settings.discord.enabled and not settings.plurk.enabled
    assert active_services(operator_env()) == {"bot", "postgres", "napcat-config", "napcat"}
    # The data directory is a volume, not the container's throw-away layer.
    mounts = [volume.split(":")[1] for volume in spec["services"]["bot"]["volumes"]]
    assert str(settings.data_dir) in mounts


# --- no secret in the files ----------------------------------------------------------------

def test_no_secret_is_written_in_the_compose_file() -> None:
    spec = compose()
    for name, service in spec["services"].items():
        for key, value in environment(service).items():
            if SECRET_NAME.search(key):  # passed on by name, or a reference
                assert value is None or WHOLE_REFERENCE.match(str(value)), (name, key)
    for path, text in strings(spec):
        # Credentials inside a URL: the password only as a reference.
        for match in re.finditer(r"://[^/@\s]*:([^/@\s]+)@", text):
            assert WHOLE_REFERENCE.match(match[1]), path
        # Nothing that looks like a generated key outside a ${...}.
        bare = REFERENCE.sub("", text)
        for word in re.findall(r"[A-Za-z0-9_+=-]{20,}", bare):
            assert not (re.search(r"\d", word) and re.search(r"[A-Za-z]", word)), (path, word)
    # No default value for a secret (`${TOKEN:-changeme}` would be a secret in the file).
    for name, op, arg in references(spec):
        if SECRET_NAME.search(name) and op in (":-", "-"):
            assert arg == "", name


def test_no_secret_is_written_in_the_example_or_napcat_config() -> None:
    for name, value, _ in env_example():
        if SECRET_NAME.search(name):
            assert value == "", name
    template = json.loads(NAPCAT_TEMPLATE.read_text("utf-8"))
    for kind, entries in template["network"].items():
        for entry in entries:
            assert entry.get("token", "") == "", kind


def test_secrets_stay_out_of_git_and_of_the_image() -> None:
    if shutil.which("git") and (ROOT / ".git").exists():
        result = subprocess.run(["git", "check-ignore", "--quiet", ".env"], cwd=ROOT,
                                timeout=60, check=False)
        assert result.returncode == 0, ".env must be git-ignored"
    ignored = (ROOT / ".dockerignore").read_text("utf-8").split()
    assert {".env", "API.keys"} <= set(ignored)


# --- NapCat connects to the bot ------------------------------------------------------------

def test_napcat_config_points_at_the_bot_with_its_token() -> None:
    spec = compose()
    services = resolve(spec, operator_env())["services"]
    template = json.loads(NAPCAT_TEMPLATE.read_text("utf-8"))
    [client] = [entry for entry in template["network"]["websocketClients"]
                if entry["name"] == "trpgbot"]
    assert client["enable"] and client["messagePostFormat"] == "array"
    assert client["reportSelfMessage"] is False
    # get_file answers with the file's bytes only with this on: decks uploaded to a group
    assert template["enableLocalFile2Url"] is True
    url = urlsplit(client["url"])
    bot_env = environment(services["bot"])
    assert url.scheme == "ws"
    assert url.hostname == "bot" and "build" in services["bot"]
    assert url.port == int(bot_env["TRPGBOT_ONEBOT__PORT"])
    assert url.path == "/onebot/v11/ws"
    # The config service hands the very variables the bot reads to configure.py...
    raw = spec["services"]
    for name in ("TRPGBOT_ONEBOT__ACCESS_TOKEN", "TRPGBOT_ONEBOT__ENABLED"):
        assert name in environment(raw["bot"])
        assert [ref for ref, _, _ in references(environment(raw["napcat-config"])[name])] == [
            name]
    config = services["napcat-config"]
    assert environment(config)["NAPCAT_ACCOUNT"] == QQ_NUMBER
    # ...runs the files of deploy/napcat/, and writes into the volume NapCat reads.
    mounts = dict(volume.split(":")[:2] for volume in config["volumes"])
    [host_dir] = [host for host, target in mounts.items() if target == "/deploy/napcat"]
    assert (ROOT / host_dir).resolve() == NAPCAT_DIR
    for argument in config["command"]:
        if argument.startswith("/deploy/napcat/"):
            assert (NAPCAT_DIR / PurePosixPath(argument).name).is_file(), argument
    napcat_mounts = dict(volume.split(":")[1::-1] for volume in services["napcat"]["volumes"])
    assert mounts[napcat_mounts["/app/napcat/config"]] == config["command"][-1]
    assert services["napcat"]["depends_on"]["napcat-config"]["condition"] == (
        "service_completed_successfully")
    # MODE would make NapCat-Docker copy its own template (empty token) over onebot11.json.
    assert "MODE" not in environment(services["napcat"])
    assert environment(services["napcat"])["ACCOUNT"] == QQ_NUMBER


def test_configure_writes_the_token_and_keeps_the_operators_entries(tmp_path: Path) -> None:
    token = SECRETS["TRPGBOT_ONEBOT__ACCESS_TOKEN"]
    earlier = {"network": {"websocketServers": [{"name": "mine", "port": 3001}],
                           "websocketClients": [
                               {"name": "trpgbot", "url": "ws://old:1/x", "token": "old"},
                               {"name": "other", "url": "ws://elsewhere/ws"}]},
               "musicSignUrl": "kept"}
    (tmp_path / "onebot11_10001.json").write_text(json.dumps(earlier), "utf-8")
    (tmp_path / "napcat.json").write_text("{}", "utf-8")  # not a OneBot file: untouched
    result = run_configure(tmp_path, TRPGBOT_ONEBOT__ACCESS_TOKEN=token,
                           NAPCAT_ACCOUNT=QQ_NUMBER)
    assert result.returncode == 0, result.stderr
    assert token not in result.stdout + result.stderr
    template_client = next(entry for entry in json.loads(NAPCAT_TEMPLATE.read_text("utf-8"))
                           ["network"]["websocketClients"] if entry["name"] == "trpgbot")
    written = {path.name: json.loads(path.read_text("utf-8"))
               for path in tmp_path.glob("onebot11*.json")}
    assert set(written) == {"onebot11.json", f"onebot11_{QQ_NUMBER}.json", "onebot11_10001.json"}
    for name, config in written.items():
        [client] = [entry for entry in config["network"]["websocketClients"]
                    if entry["name"] == "trpgbot"]
        assert client == {**template_client, "token": token}, name
    kept = written["onebot11_10001.json"]
    assert kept["musicSignUrl"] == "kept"
    assert kept["network"]["websocketServers"] == earlier["network"]["websocketServers"]
    assert {"name": "other", "url": "ws://elsewhere/ws"} in kept["network"]["websocketClients"]
    assert (tmp_path / "napcat.json").read_text("utf-8") == "{}"
    # Idempotent: a second start writes the same files.
    before = {path.name: path.read_bytes() for path in tmp_path.iterdir()}
    assert run_configure(tmp_path, TRPGBOT_ONEBOT__ACCESS_TOKEN=token,
                         NAPCAT_ACCOUNT=QQ_NUMBER).returncode == 0
    assert {path.name: path.read_bytes() for path in tmp_path.iterdir()} == before


def test_configure_refuses_a_missing_token_or_a_bad_account(tmp_path: Path) -> None:
    """NapCat waits for configure.py: what the compose file cannot require without binding
    deployments that have no QQ (a ${…:?}), configure.py refuses, naming the variable."""
    assert run_configure(tmp_path).returncode == 1
    assert run_configure(tmp_path, TRPGBOT_ONEBOT__ACCESS_TOKEN="x",
                         NAPCAT_ACCOUNT="not-a-number").returncode == 1
    for variable, value in (("NAPCAT_WEBUI_TOKEN", ""), ("TRPGBOT_ONEBOT__ENABLED", "false"),
                            ("TRPGBOT_ONEBOT__ENABLED", "")):
        result = run_configure(tmp_path, TRPGBOT_ONEBOT__ACCESS_TOKEN="x", **{variable: value})
        assert result.returncode == 1 and variable in result.stderr, (variable, value)
    assert not list(tmp_path.iterdir())
    # What compose hands it from .env.example as copied (QQ off, no token): refused too.
    config = resolve(compose(), operator_env({"POSTGRES_PASSWORD": "x"}))["services"][
        "napcat-config"]
    result = run_configure(tmp_path, **environment(config))
    assert result.returncode == 1 and "TRPGBOT_ONEBOT__ENABLED=true" in result.stderr


# --- compose for every mix of platforms ----------------------------------------------------

def test_napcat_alone_is_behind_the_qq_profile() -> None:
    services = compose()["services"]
    assert {name: service.get("profiles") for name, service in services.items()} == {
        "bot": None, "postgres": None, "napcat-config": [QQ_PROFILE], "napcat": [QQ_PROFILE],
        "bot-2": [SCALE_PROFILE]}
    # Whatever .env holds, a service outside the profile reads no QQ-only variable.
    qq_only = {"NAPCAT_WEBUI_TOKEN", "NAPCAT_ACCOUNT", "TRPGBOT_ONEBOT__ACCESS_TOKEN"}
    for name, service in services.items():
        if not service.get("profiles"):
            assert not {ref for ref, _, _ in references(service)} & qq_only, name


def test_a_deployment_without_qq_needs_no_qq_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    env = operator_env(DISCORD_ONLY)
    assert not {"TRPGBOT_ONEBOT__ACCESS_TOKEN", "NAPCAT_WEBUI_TOKEN"} & set(env)
    resolve(compose(), env)  # no variable missing: `docker compose up` accepts the file
    assert active_services(env) == {"bot", "postgres"}
    settings = settings_from(bot_container_env(env), monkeypatch)
    assert settings.discord.enabled and settings.discord.token is not None
    assert not settings.onebot.enabled and settings.onebot.access_token is None
    assert not settings.plurk.enabled
    assert make_url(settings.resolved_database_url()).host == "postgres"


def test_images_are_pinned_to_a_release() -> None:
    spec = resolve(compose(), operator_env({"POSTGRES_PASSWORD": "x"}))
    images = {name: service["image"] for name, service in spec["services"].items()
              if "build" not in service}
    assert set(images) == {"postgres", "napcat-config", "napcat"}
    for name, image in images.items():
        repository, _, tag = image.rpartition(":")
        assert repository and tag and tag != "latest", (name, image)
    assert re.fullmatch(r"postgres:\d+\.\d+", images["postgres"])  # a minor release
    assert re.fullmatch(r"mlikiowa/napcat-docker:v\d+\.\d+\.\d+", images["napcat"])
    # The Dockerfile's base image too.
    assert all(":" in args.split()[0] and "latest" not in args
               for word, args in dockerfile() if word == "FROM")


def test_napcat_keeps_its_login_and_its_webui_stays_on_localhost() -> None:
    spec = resolve(compose(), operator_env())
    napcat = spec["services"]["napcat"]
    assert "mlikiowa/napcat-docker" in napcat["image"]
    targets = {}
    for volume in napcat["volumes"]:
        source, target = volume.split(":")[:2]
        assert source in spec["volumes"], f"{target} must be a named volume"
        targets[target] = source
    assert {"/app/napcat/config", "/app/.config/QQ"} <= set(targets)
    assert napcat.get("mac_address")  # QQ's login survives a recreated container
    assert environment(napcat)["WEBUI_TOKEN"] == SECRETS["NAPCAT_WEBUI_TOKEN"]
    ports = napcat["ports"]
    assert ports and all(str(port).startswith("127.0.0.1:") for port in ports)
    assert any(str(port).endswith(":6099") for port in ports)
    # Nothing else is published on the host (the bot's WebSocket stays in the network).
    assert [name for name, service in spec["services"].items()
            if service.get("ports") and name != "napcat"] == []


# --- start order, restarts, volumes --------------------------------------------------------

def test_services_wait_for_the_database_and_restart() -> None:
    spec = compose()
    services = spec["services"]
    postgres = services["postgres"]
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"])
    assert services["bot"]["depends_on"]["postgres"]["condition"] == "service_healthy"
    for name in LONG_RUNNING:
        assert services[name]["restart"] in ("always", "unless-stopped"), name
    # The database lives in a named volume, mounted where this image version keeps it
    # (18 and later: /var/lib/postgresql, holding <major>/docker; before: .../data).
    [volume] = postgres["volumes"]
    source, target = volume.split(":")[:2]
    assert source in spec["volumes"]
    major = int(re.search(r":(\d+)", postgres["image"])[1])
    assert target == ("/var/lib/postgresql" if major >= 18 else "/var/lib/postgresql/data")


# --- the Dockerfile installs what pyproject.toml declares ----------------------------------

def test_dockerfile_installs_the_package_with_its_postgres_extra() -> None:
    steps = dockerfile()
    project = PYPROJECT["project"]
    setuptools = PYPROJECT["tool"]["setuptools"]
    copied: set[str] = set()
    for word, args in steps:
        if word == "COPY" and "--from=" not in args:
            *sources, _ = shlex.split(args)
            copied |= {source.rstrip("/") for source in sources}
    # The files the build reads: pyproject.toml, the readme, every package and its data.
    assert {"pyproject.toml", project["readme"]} <= copied
    packages = find_packages(where=str(ROOT), include=setuptools["packages"]["find"]["include"])
    tops = {package.split(".")[0] for package in packages}
    assert {"bot", "adapters", "rules", "migrations"} <= tops
    assert sorted(tops - copied) == []
    for package, patterns in setuptools.get("package-data", {}).items():
        assert package.split(".")[0] in copied, package
        for pattern in patterns:
            assert list((ROOT / package.replace(".", "/")).glob(pattern)), (package, pattern)
    # Installed with the extra that pyproject.toml names for PostgreSQL.
    extras = PYPROJECT["project"]["optional-dependencies"]
    installs = [args for word, args in steps if word == "RUN" and "pip install" in args]
    named = {extra for args in installs for extra in re.findall(r"\[([\w,-]+)\]", args)}
    assert "postgres" in named
    assert {extra for group in named for extra in group.split(",")} <= set(extras)
    assert any(re.match(r"asyncpg\b", requirement) for requirement in extras["postgres"])


def test_dockerfile_runs_the_bot_as_an_unprivileged_user() -> None:
    stage = final_stage()
    users = [i for i, (word, _) in enumerate(stage) if word == "USER"]
    assert users, "the image must not run as root"
    user = stage[users[-1]][1].split(":")[0]
    assert user not in ("root", "0")
    assert max(i for i, (word, _) in enumerate(stage) if word == "RUN") < users[-1]
    # The command is the project's own entry point: `trpgbot run` migrates at start.
    [command] = [json.loads(args) for word, args in stage if word == "CMD"]
    assert command[0] in PYPROJECT["project"]["scripts"] and command[1:] == ["run"]
    assert not [word for word, _ in stage if word == "ENTRYPOINT"]
    # The Python of the image is one the project supports.
    arg = dict(args.split("=", 1) for word, args in dockerfile() if word == "ARG" and "=" in args)
    versions = {interpolate(args.split()[0], arg).split(":")[1].split("-")[0]
                for word, args in dockerfile() if word == "FROM"}
    assert versions and all(version in SpecifierSet(PYPROJECT["project"]["requires-python"])
                            for version in versions)
    # The data volume belongs to that user (a fresh named volume copies the ownership).
    assert dockerfile_env()["TRPGBOT_DATA_DIR"] == "/app/data"


# --- the operator's docs -------------------------------------------------------------------

def test_the_docs_give_the_backup_commands_the_code_prints() -> None:
    from adapters.backup import PG_DUMP, PG_RESTORE

    readme = (ROOT / "README.md").read_text("utf-8")
    operations = (ROOT / "docs" / "operations.md").read_text("utf-8")
    assert "-T" in PG_DUMP.split()  # no terminal: the dump reaches the file unmangled
    assert PG_DUMP in readme and PG_DUMP in operations
    assert "compose exec postgres" not in readme + operations
    assert PG_RESTORE in operations
    headings = re.findall(r"^## (.+)$", operations, re.MULTILINE)
    assert {"Backups", "Restore", "Upgrade", "Compose profiles",
            "NapCat login volume"} <= set(headings)
    images = {service["image"] for service in resolve(
        compose(), operator_env({"POSTGRES_PASSWORD": "x"}))["services"].values()
        if "build" not in service}
    assert all(f"`{image}`" in operations for image in images)  # the pinned tags explained


# --- two bot processes (docs/scaling.md) ---------------------------------------------------

def test_a_second_bot_process_runs_its_own_shards_and_accounts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The `scale` profile adds bot-2: the same image and settings on the same PostgreSQL,
    with the shards and accounts its BOT_2_* lines give it, and its own data volume."""
    env = operator_env(QQ_ON | {
        "COMPOSE_PROFILES": f"{QQ_PROFILE},{SCALE_PROFILE}",
        "TRPGBOT_DISCORD__ENABLED": "true", "TRPGBOT_DISCORD__TOKEN": "dis4cord8test",
        "TRPGBOT_DISCORD__SHARD_COUNT": "2", "TRPGBOT_DISCORD__SHARD_IDS": "0",
        "TRPGBOT_ONEBOT__SELF_IDS": '["10001"]',
        "BOT_2_DISCORD_ENABLED": "true", "BOT_2_DISCORD_SHARD_IDS": "1",
        "BOT_2_ONEBOT_ENABLED": "true", "BOT_2_ONEBOT_SELF_IDS": '["10002"]'})
    assert active_services(env) == {"bot", "bot-2", "postgres", "napcat-config", "napcat"}
    first = settings_from(bot_container_env(env), monkeypatch)
    second = settings_from(bot_container_env(env, "bot-2"), monkeypatch)
    assert first.resolved_database_url() == second.resolved_database_url()
    assert make_url(second.resolved_database_url()).host == "postgres"
    assert (first.discord.shard_count, first.discord.shard_ids) == (2, [0])
    assert (second.discord.shard_count, second.discord.shard_ids) == (2, [1])
    assert first.discord.syncs_commands and not second.discord.syncs_commands
    assert (first.onebot.self_ids, second.onebot.self_ids) == (["10001"], ["10002"])
    assert second.onebot.enabled and second.onebot.host == "0.0.0.0"
    spec = resolve(compose(), env)["services"]
    assert spec["bot-2"]["volumes"] == ["bot-2-data:/app/data"]
    assert spec["bot"]["volumes"] == ["bot-data:/app/data"]
    assert spec["bot-2"]["healthcheck"] == spec["bot"]["healthcheck"]
    assert spec["bot-2"]["image"] == spec["bot"]["image"]


def test_a_second_bot_process_answers_nothing_twice_until_told(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """bot-2 with no BOT_2_* line: every platform off there, though bot runs them (the
    same Discord shards or QQ accounts twice would answer every command twice)."""
    env = operator_env(QQ_ON | DISCORD_ONLY | {"COMPOSE_PROFILES": SCALE_PROFILE,
                                               "TRPGBOT_PLURK__ENABLED": "true"})
    assert active_services(env) == {"bot", "bot-2", "postgres"}
    first = settings_from(bot_container_env(env), monkeypatch)
    assert first.discord.enabled and first.onebot.enabled and first.plurk.enabled
    second = settings_from(bot_container_env(env, "bot-2"), monkeypatch)
    assert not (second.discord.enabled or second.onebot.enabled or second.plurk.enabled)
    # a second Plurk account: its own token, the app's key shared
    plurk = {"BOT_2_PLURK_ENABLED": "true", "BOT_2_PLURK_TOKEN": "tok2plurk",
             "BOT_2_PLURK_TOKEN_SECRET": "sec2plurk", "TRPGBOT_PLURK__TOKEN": "tok1plurk",
             "TRPGBOT_PLURK__APP_KEY": "app7key"}
    second = settings_from(bot_container_env(env | plurk, "bot-2"), monkeypatch)
    assert second.plurk.enabled and second.plurk.token is not None
    assert second.plurk.token.get_secret_value() == "tok2plurk"
    assert second.plurk.app_key is not None
    assert second.plurk.app_key.get_secret_value() == "app7key"
