"""Set E of contradiction pairs: names opening a sentence, a line or a list item, and change words
beside a memory about another subject (issue 27, the faults a new-user trial found: "Alice Martin owns
the billing service" → "Bob Chen owns ..." missed, "The API now uses gRPC" outdating a memory about the
UI). Written with the rules that fix them, by their author, and read while adjusting them: a check
of the kinds, not an unseen figure. Format as in bench/contradiction_pairs.py."""

from __future__ import annotations

YES, NO = True, False

PAIRS_E = [
    # -- contradicting ---------------------------------------------------------------
    ("Alice owns the billing service.", "Bob owns the billing service.", YES, "name first"),
    ("Alice Martin owns the billing service.", "Bob Chen owns the billing service.", YES, "name first"),
    ("- Alice owns the billing service.", "- Bob owns the billing service.", YES, "name first"),
    ("Owners\nAlice owns the billing service.", "Owners\nBob owns the billing service.", YES, "name first"),
    ("Anne de Vries owns the billing service.", "Bob Chen owns the billing service.", YES, "name first"),
    ("Jan van der Berg leads the data team.", "Karim Haddad leads the data team.", YES, "name first"),
    ("Jonas Berg is the release manager.", "Priya Nair is the release manager.", YES, "name first"),
    ("Lena manages the mobile team.", "Oskar manages the mobile team.", YES, "name first"),
    ("Alice owns the billing service.", "Bob now owns the billing service.", YES, "name first"),
    ("Rosa heads the platform group.", "Karim heads the platform group.", YES, "name first"),
    ("* Marta maintains the deploy scripts.", "* Oskar maintains the deploy scripts.", YES, "name first"),
    ("1. Ines chairs the architecture review.", "1. Tomas chairs the architecture review.", YES, "name first"),
    ("Alice owns the billing service.", "The billing service is owned by Bob.", YES, "name first"),
    ("Sam is the on-call lead this week.", "Dee is the on-call lead this week.", YES, "name first"),
    ("Since March, Alice Martin owns the billing service.", "Since March, Bob Chen owns the billing service.",
     YES, "name first"),
    ("The UI uses React.", "The UI now uses Svelte.", YES, "now same subject"),
    ("Alerts go to PagerDuty.", "Alerts now go to Opsgenie instead.", YES, "now same subject"),
    ("The API uses REST.", "The API now uses gRPC.", YES, "now same subject"),
    ("The docs site is hosted on Netlify.", "The docs site has moved to Cloudflare Pages.", YES, "now same subject"),
    ("We deploy with Jenkins.", "Deploys now go through GitHub Actions.", YES, "now same subject"),
    ("Our frontend uses React.", "The frontend now uses Svelte.", YES, "now same subject"),
    # -- not contradicting -----------------------------------------------------------
    ("Alice owns the billing service.", "Alice owns the payments service.", NO, "name first near"),
    ("Alice drinks tea.", "Bob drinks tea.", NO, "name first near"),
    ("Alice lives in Berlin.", "Bob lives in Berlin.", NO, "name first near"),
    ("Alice manages 5 engineers.", "Bob manages 5 engineers.", NO, "name first near"),
    ("Alice is a backend engineer.", "Bob is a backend engineer.", NO, "name first near"),
    ("Alice owns the billing service.", "Bob owns the payments service.", NO, "name first near"),
    ("- The staging cluster has 4 nodes.", "- The production cluster has 12 nodes.", NO, "name first near"),
    ("Deploys happen on Tuesdays.", "Our deploys happen on Tuesdays.", NO, "name first near"),
    ("The API is written in Go.", "Our API is written in Go.", NO, "name first near"),
    ("Yesterday Alice fixed the login bug.", "Yesterday Bob fixed the payments bug.", NO, "name first near"),
    ("Restart Nginx after changing its config.", "Reload Nginx when the certificates rotate.", NO, "name first near"),
    ("Install Docker before running the tests.", "Use Python 3.11 for the scripts.", NO, "name first near"),
    ("Marta's train leaves at 8:10.", "Oskar's train leaves at 9:05.", NO, "name first near"),
    ("The UI uses React.", "The API now uses gRPC.", NO, "now other subject"),
    ("The UI is built with React.", "The API now uses gRPC.", NO, "now other subject"),
    ("Our frontend uses React.", "The API now uses gRPC.", NO, "now other subject"),
    ("The mobile app stores tokens in keychain.", "The backend now stores sessions in Redis.", NO, "now other subject"),
    ("The staging cluster has 4 nodes.", "The production cluster now has 6 nodes.", NO, "now other subject"),
    ("Marta runs the standup.", "Oskar now runs the retro.", NO, "now other subject"),
    ("The docs site is hosted on Netlify.", "The blog is now hosted on Ghost.", NO, "now other subject"),
    ("Alerts go to PagerDuty.", "Logs now go to Loki.", NO, "now other subject"),
    ("Our CI runs on GitHub Actions.", "The search index now runs on OpenSearch.", NO, "now other subject"),
    ("The frontend talks to the gateway over REST.", "The API now talks to the gateway over gRPC.",
     NO, "now other subject"),
    ("The UI polls for new notifications every minute.", "The API now pushes notifications over websockets.",
     NO, "now other subject"),
    ("The admin UI talks to Postgres through the API.", "The API now talks to Postgres through PgBouncer.",
     NO, "now other subject"),
]
