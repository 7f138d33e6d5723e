"""One package per game system (``rules.systems.<id>``, exporting ``SYSTEM``);
``registry`` discovers them. ``base`` is the small interface they implement."""
