"""Set F of contradiction pairs: outcomes ("failed" / "succeeded"), "now" beside a verb that adds ("now likes"),
hyphenated group compounds ("Marketing-Team"), names with particles ("Anne de Vries"). Written after the rules
for these kinds, by their author, apart from the tests' pairs, and run once: a check of the kinds, not an unseen
figure. Format as in bench/contradiction_pairs.py."""

from __future__ import annotations

YES, NO = True, False

PAIRS_F = [
    # -- contradicting ---------------------------------------------------------------
    ("The database failover drill failed.", "The database failover drill succeeded.", YES, "outcome"),
    ("The smoke tests on staging passed.", "The smoke tests on staging failed after the config change.", YES,
     "outcome"),
    ("The certificate renewal was unsuccessful.", "The certificate renewal was successful.", YES, "outcome"),
    ("The data import for March failed.", "The data import for March succeeded on the second run.", YES, "outcome"),
    ("The Support-Team sits on the 2nd floor.", "The support team now sits on the 4th floor.", YES, "compound"),
    ("Das Design-Team arbeitet in Köln.", "Das Design-Team arbeitet jetzt in Bonn.", YES, "compound"),
    ("The infra-team standup is at 9:30.", "The infra team standup is at 11:00.", YES, "compound"),
    ("Pieter van Dijk owns the search service.", "Sara Lind owns the search service.", YES, "particles"),
    ("The finance contact is Maria da Costa.", "The finance contact is now Tom Baker.", YES, "particles"),
    ("Hugo de Groot chairs the security review.", "Ines Roth chairs the security review.", YES, "particles"),
    ("Mia likes green tea.", "Mia no longer likes green tea.", YES, "now and a verb that adds"),
    ("Our dog is vegetarian.", "Our dog now eats chicken.", YES, "now and a verb that adds"),
    # -- not contradicting -----------------------------------------------------------
    ("The database failover drill failed.", "The database backup drill succeeded.", NO, "outcome"),
    ("The smoke tests on staging passed.", "The smoke tests on staging succeeded.", NO, "outcome"),
    ("The data import for March failed.", "The data import for March failed again on Tuesday.", NO, "outcome"),
    ("The Support-Team sits on the 2nd floor.", "The Sales-Team sits on the 4th floor.", NO, "compound"),
    ("Das Design-Team arbeitet in Köln.", "Das Finanz-Team arbeitet in Bonn.", NO, "compound"),
    ("The infra-team standup is at 9:30.", "The infra-team standup is at 9:30 in room B.", NO, "compound"),
    ("Pieter van Dijk owns the search service.", "Pieter owns the search service.", NO, "particles"),
    ("The finance contact is Maria da Costa.", "Maria da Costa also handles the payroll questions.", NO,
     "particles"),
    ("Hugo de Groot chairs the security review.", "Hugo Groot chairs the security review.", NO, "particles"),
    ("Mia likes green tea.", "Mia now likes oolong too.", NO, "now and a verb that adds"),
    ("Leo enjoys board games.", "Leo now enjoys chess.", NO, "now and a verb that adds"),
    ("Nora loves hiking.", "These days Nora loves kayaking.", NO, "now and a verb that adds"),
]
