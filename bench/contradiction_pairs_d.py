"""Set D of contradiction pairs: written after the subject and word-swap rules were (those were
adjusted while set C's misses were read, so C is no longer unseen), and run once, untuned, to say
how they do on pairs nobody tuned them on. Format as in bench/contradiction_pairs.py."""

from __future__ import annotations

YES, NO = True, False

PAIRS_D = [
    # -- contradicting ---------------------------------------------------------------
    ("Our Go services are formatted with gofmt.", "Our Go services are formatted with gofumpt.", YES, "word swap"),
    ("The team's retros happen biweekly.", "The team's retros happen monthly.", YES, "word swap"),
    ("Elin takes the train to work.", "Elin takes the bus to work.", YES, "word swap"),
    ("The mobile app stores tokens in keychain.", "The mobile app stores tokens in sqlite.", YES, "word swap"),
    ("Staging deploys are triggered manually.", "Staging deploys are triggered automatically.", YES, "word swap"),
    ("The Kafka cluster has six brokers.", "The Kafka cluster has nine brokers.", YES, "number word"),
    ("Onboarding takes two days.", "Onboarding takes four days.", YES, "number word"),
    ("Each team gets ten GPU nodes.", "Each team gets 16 GPU nodes.", YES, "number word"),
    ("We host the docs on Netlify.", "We moved the docs hosting to Cloudflare Pages.", YES, "restated change"),
    ("Rosa leads the data platform team.", "Data platform is now led by Karim.", YES, "restated change"),
    ("The help desk number is 555-0142.", "The help desk number is 555-0199.", YES, "ident"),
    ("The weekly sync is at 15:00 on Tuesdays.", "The weekly sync is at 16:00 on Tuesdays.", YES, "time"),
    ("The build cache lives in /var/cache/ci.", "The build cache lives in /mnt/ci-cache.", YES, "path"),
    ("The ML cluster uses CUDA 12.1.", "The ML cluster uses CUDA 12.4.", YES, "version"),
    ("The NAS backup target is nas-02.", "The NAS backup target is nas-05.", YES, "host"),
    ("Guest Wi-Fi is enabled on weekends.", "Guest Wi-Fi is disabled on weekends.", YES, "state"),
    ("Ola drinks alcohol.", "Ola does not drink alcohol anymore.", YES, "negation"),
    ("The report is emailed on Mondays.", "The report is emailed on Fridays.", YES, "day"),
    ("The error budget is 0.1% per month.", "The error budget is 0.5% per month.", YES, "number"),
    ("Our licence allows 50 seats.", "Our licence allows 75 seats.", YES, "number"),
    # -- not contradicting -----------------------------------------------------------
    ("The staging Kafka cluster has six brokers.", "The production Kafka cluster has nine brokers.",
     NO, "other subject"),
    ("My wife's car is a Volvo.", "My brother's car is a Skoda.", NO, "other subject"),
    ("The Android build takes 12 minutes.", "The iOS build takes 20 minutes.", NO, "other subject"),
    ("The Stockholm team starts at 8:30.", "The Madrid team starts at 9:30.", NO, "other subject"),
    ("Our internal API uses port 7000.", "Our public API uses port 443.", NO, "other subject"),
    ("Frontend PRs need one approval.", "Backend PRs need two approvals.", NO, "other subject"),
    ("The junior plan includes 5 GB.", "The senior plan includes 50 GB.", NO, "other subject"),
    ("Elin's desk is on floor 3.", "Karim's desk is on floor 5.", NO, "other subject"),
    ("The dev database is Postgres 14.", "The analytics database is Postgres 16.", NO, "other subject"),
    ("Issue GH-210 is fixed.", "Issue GH-233 is not fixed.", NO, "other subject"),
    ("Elin takes the train to work.", "Elin commutes to work by train.", NO, "paraphrase"),
    ("Onboarding takes two days.", "Onboarding lasts 2 days.", NO, "same value"),
    ("The weekly sync is at 15:00 on Tuesdays.", "On Tuesdays the weekly sync starts at 3pm.", NO, "paraphrase"),
    ("The ML cluster uses CUDA 12.1.", "The ML cluster uses CUDA 12.1 with cuDNN 8.9.", NO, "added detail"),
    ("We host the docs on Netlify.", "We host the docs on Netlify with preview deploys per PR.", NO, "added detail"),
    ("The NAS backup target is nas-02.", "The NAS holds 8 TB of family photos.", NO, "other slot"),
    ("Our licence allows 50 seats.", "Our licence renews every March.", NO, "other slot"),
    ("The report is emailed on Mondays.", "The report covers the previous 7 days.", NO, "other slot"),
    ("Staging deploys are triggered manually.", "Production deploys are triggered manually.", NO, "other subject"),
    ("Ola does not drink alcohol.", "Ola avoids alcohol.", NO, "paraphrase"),
]
