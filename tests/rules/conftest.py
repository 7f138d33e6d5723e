"""Every rules test starts with empty dice caches.

``rules.dice`` caches parsed expressions (``parse_cached``, ``roll``'s
``_prepare_cached``). A test must not depend on what an earlier test parsed; and
mutation testing (scripts/mutation.sh) forks each mutant from a process that has
already run the suite, so without this a cached, unmutated parse would hide a
mutant in the parser or the AST nodes.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from rules.dice import engine, parser


@pytest.fixture(autouse=True)
def _empty_dice_caches() -> Iterator[None]:
    engine._prepare_cached.cache_clear()
    parser.parse_cached.cache_clear()
    yield
