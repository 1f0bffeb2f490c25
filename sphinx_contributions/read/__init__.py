"""Reading pages: the directives and roles a write-up is written with (source → nodes), their options,
and the rules of a page's source and its fences as MyST reads them."""
