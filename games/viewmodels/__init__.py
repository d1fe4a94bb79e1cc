"""What one viewer sees, shaped from a snapshot or from values the selectors read: no
queries, no writes. The board (:mod:`.board`) and its parts (scorecard, move log, coach,
choices, review, announcements, action URLs), and what they share (:mod:`.base`)."""
