"""The HTTP side: a table's page and its actions (:mod:`.table`), read-only pages
(:mod:`.pages`), practice (:mod:`.practice`), accounts (:mod:`.accounts`), the forms they
parse (:mod:`.forms`) and what they share (:mod:`.common`)."""
