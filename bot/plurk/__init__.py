"""What the `plurk` chat commands share, apart from the commands themselves.

The handlers in ``bot/handlers/plurk_*.py`` parse arguments, decide permissions
and render; every rule is ``rules.systems.plurk``'s. What several handlers need
around that lives here, one concern a module, so that the check, point and
battle commands behave alike:

- ``system``: the sheet names the system declares (體力, 理智 …) and the guard
  that a channel plays plurk;
- ``characters``: which character a command is about, and the numbers on its sheet;
- ``fatal``: the pending fatal events of PL-12 and how they are settled;
- ``terms`` / ``check_args``: the words of a check as players type them;
- ``check_records``: the last check of each player, and what of a hidden one may
  reach the channel;
- ``rendering``: checks and refusals as the channel reads them;
- ``battle_*``: the battle's stored state, its arguments, roster and texts.
"""
