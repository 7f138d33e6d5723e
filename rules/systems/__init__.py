"""One module per game system; ``registry`` lists them."""
