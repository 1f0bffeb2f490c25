"""A social card's size in pixels: here, apart from the drawing (:mod:`.card_image`, which needs Pillow),
so that the tags naming a card (:mod:`..write.social_cards`) need no Pillow."""

WIDTH, HEIGHT = 1200, 630
