"""A social card's size, apart from the drawing, so that naming a card (:mod:`..write.social_cards`) needs no Pillow."""

WIDTH, HEIGHT = 1200, 630
