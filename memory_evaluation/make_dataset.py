"""Write the scorecard's DEV split (deterministic: the same file every run).

    python -m memory_evaluation.make_dataset   # rewrites data/dev_split.json

The dev split is the data you look at while writing or tuning anything: its items are made here
from phrasing families and vocabulary lists you can read below. The TEST split
(``data/test_split.json``) was written apart from this file, by someone who had not seen the
server's rules, and shares none of these families or lists: it is the one the scorecard reports
and CI holds to floors, and nothing is tuned on it. Both are in the same format
(``/work/spec``-style ``split_format``, read by :mod:`.splits`), and :mod:`.haystack` turns either
into users with realistic histories.

Every item is self-contained, in the user's own first-person words:

* facts (information extraction) and multi-session facts (the answer needs two sessions);
* knowledge updates (an old value, then a new one of the same single-valued attribute, over 8
  attributes and several phrasing families each);
* keeps (two statements that must both stay current: many-valued things, other people);
* withdrawals ("I no longer …", "forget that …");
* temporal pairs (two dated events), abstention questions (never said, often a near miss);
* follow-ups (a question, then one that only makes sense after it: "and when was that?");
* the haystack: small talk, assistant replies and statement templates (other people's facts,
  everyday happenings, the same topics at other times) with their vocabulary.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

SEED = 11
OUT = Path(__file__).with_name("data") / "dev_split.json"

CITIES = "Oslo Lisbon Nairobi Kyoto Lima Quebec Tunis Hanoi Perth Bergen Porto Accra Krakow Austin Seville Riga".split()
COMPANIES = "Contoso Fabrikam Northwind Tailspin Litware Adatum Woodgrove Proseware Lamna Wingtip".split()
JOBS = "nurse teacher welder architect pharmacist baker translator surveyor".split()
CARS = "Toyota Volvo Skoda Kia Subaru Fiat Renault Mazda".split()
SPORTS = "climbing swimming rowing fencing cycling yoga".split()
DAYS = "Mondays Tuesdays Wednesdays Thursdays Fridays Saturdays Sundays".split()
ALLERGIES = "shellfish peanuts pollen penicillin sesame kiwi latex".split()
SIBLING_NAMES = "Nora Mila Tessa Ruth Greta Leila Hanna Iris".split()
FOODS = "ramen lasagne pierogi tagine laksa paella bibimbap moussaka".split()
COLOURS = "green teal orange purple yellow navy crimson".split()
INSTRUMENTS = "cello trumpet banjo harp oboe drums".split()
CAT_NAMES = "Miso Tofu Pickle Mochi Olive Pepper Biscuit Juniper".split()
DOG_NAMES = "Rex Bruno Luna Scout Ziggy Maple Otto Pip".split()
LANGUAGES = "Spanish Japanese Swahili Polish Turkish Korean Greek Hindi".split()
DRINKS = "tea coffee cocoa lemonade kombucha".split()
PLANTS = "tomatoes basil chillies strawberries mint".split()
COLLECTIONS = "postcards stamps coins maps".split()
GAMES = "chess darts poker bridge badminton squash snooker".split()
MONTHS = "January February March April May June July August September October November December".split()
EVENTS = [  # (statement with {when}, short description used in the question)
    ("I bought a new camera on {when}.", "bought the camera"),
    ("I flew to {city} on {when} for a week.", "flew to {city}"),
    ("I ran a half marathon on {when}.", "ran the half marathon"),
    ("I got my driving licence on {when}.", "got my driving licence"),
    ("I painted the bathroom on {when}.", "painted the bathroom"),
    ("I adopted a hamster called Bean on {when}.", "adopted the hamster"),
    ("I started a pottery course on {when}.", "started the pottery course"),
    ("I passed my diving exam on {when}.", "passed the diving exam"),
]

# Knowledge updates: attribute -> (old statement, [new-statement phrasing families], question, vocabulary).
UPDATE_FAMILIES: dict[str, tuple[str, list[tuple[str, str]], str, list[str]]] = {
    "home": ("I live in {old}.", [
        ("now", "I live in {new} now."),
        ("moved, so home", "I moved to {new} last month, so that is home now."),
        ("relocated", "We relocated to {new} over the summer."),
    ], "Which city is my home?", CITIES),
    "employer": ("I work at {old}.", [
        ("new job at", "I started a new job at {new}."),
        ("joined", "I've just joined {new} and left my old company."),
    ], "Who is my employer?", COMPANIES),
    "car": ("I drive a {old}.", [
        ("sold and now drive", "I sold my {old} and now drive a {new}."),
        ("swapped", "I swapped the {old} for a {new}."),
    ], "What car do I have?", CARS),
    "job": ("I work as a {old}.", [
        ("retrained", "I retrained and now work as a {new}."),
        ("changed career", "I changed careers: I'm a {new} now."),
    ], "What do I do for a living?", JOBS),
    "favourite:food": ("My favourite food is {old}.", [
        ("these days", "These days my favourite food is {new}."),
        ("gone off", "I've gone off {old}; {new} is my favourite food now."),
    ], "Which dish do I like most?", FOODS),
    "favourite:colour": ("My favourite colour is {old}.", [
        ("now", "My favourite colour is {new} now."),
    ], "What colour do I like best?", COLOURS),
    "age": ("I am {old} years old.", [
        ("turned", "I turned {new} last week."),
    ], "How old am I?", [str(n) for n in range(24, 60)]),
    "schedule": ("I go {sport} on {old}.", [
        ("moved to", "I moved {sport} to {new}."),
        ("now on", "I go {sport} on {new} now."),
    ], "Which day is my {sport} day?", DAYS),
}
UPDATES_PER_ATTRIBUTE = 8

# Keeps: two statements that must both stay current.
KEEP_FAMILIES = [
    ("many-valued: pets", "I have a cat named {a}.", "I also have a dog called {b}.", CAT_NAMES, DOG_NAMES,
     "What are my pets called?"),
    ("many-valued: languages", "I speak {a}.", "I'm learning {b} too.", LANGUAGES, LANGUAGES,
     "Which languages do I know or study?"),
    ("many-valued: likes", "I like {a}.", "I also like {b}.", DRINKS, DRINKS, "What do I like to drink?"),
    ("many-valued: instruments", "I play the {a}.", "I've also started playing the {b}.", INSTRUMENTS, INSTRUMENTS,
     "Which instruments do I play?"),
    ("many-valued: plants", "I grow {a} on my balcony.", "I also grow {b} in the garden.", PLANTS, PLANTS,
     "What do I grow?"),
    ("many-valued: collections", "I collect {a}.", "I collect {b} as well.", COLLECTIONS, COLLECTIONS,
     "What do I collect?"),
    ("different people", "My sister lives in {a}.", "My best friend lives in {b}.", CITIES, CITIES,
     "Where do my sister and my best friend live?"),
    ("many-valued: allergies", "I'm allergic to {a}.", "I'm also allergic to {b}.", ALLERGIES, ALLERGIES,
     "What am I allergic to?"),
]
KEEPS_PER_FAMILY = 7

WITHDRAWAL_FAMILIES = [
    ("I play {g} on Thursday evenings.", "I no longer play {g}."),
    ("I play {g} with my neighbours every week.", "Forget that I play {g}."),
]

FACT_FAMILIES = [
    ("I'm allergic to {v}.", "What am I allergic to?", ALLERGIES),
    ("My sister is called {v}.", "What's my sister's name?", SIBLING_NAMES),
    ("I play the {v} in a band.", "Which instrument do I play?", INSTRUMENTS),
    ("My birthday is on {v}.", "When is my birthday?", [f"{d} {m}" for d, m in zip(range(3, 27, 2), MONTHS, strict=True)]),
    ("My blood group is {v}.", "What's my blood type?", ["A positive", "B negative", "O positive", "AB positive"]),
    ("I take size {v} in shoes.", "What shoe size do I wear?", [str(n) for n in range(37, 46)]),
    ("I grew up in {v}.", "Where was I raised?", CITIES),
    ("My dentist is Dr {v}.", "Who is my dentist?", ["Okafor", "Lindqvist", "Moreau", "Tanaka", "Rossi", "Novak"]),
]
FACTS_PER_FAMILY = 4

MULTI_FAMILIES = [
    (["I volunteer at the {a} on weekends.", "On Sundays I also coach {b}."], "What do I do in my spare time?",
     ["food bank", "animal shelter", "library", "community garden"], ["junior football", "netball", "chess club"]),
    (["My mother lives in {a}.", "My father has a flat in {b}."], "Where do my parents live?", CITIES, CITIES),
    (["I'm reading a novel by {a}.", "I'm also halfway through a biography of {b}."],
     "Which books am I reading at the moment?", ["Tolstoy", "Austen", "Murakami", "Achebe", "Woolf"],
     ["Darwin", "Curie", "Lincoln", "Frida Kahlo", "Mandela"]),
]
# (Multi-session families share no wording with the keeps: one user can get both.)
MULTI_PER_FAMILY = 6

# Never said by the user; often a near miss of something they did say.
ABSTENTION = [
    ("What is my brother's name?", "My sister {p} is a vet."),
    ("Where did I go to university?", "My sister studied law in {c}."),
    ("What is my horse called?", "My neighbour has a horse called {p}."),
    ("How many children do I have?", "My cousin {p} has three children."),
    ("What is my favourite film?", "My partner's favourite film is a western."),
    ("Which football team do I support?", "My uncle supports the team from {c}."),
    ("What is my partner's job?", "My partner's brother is a pilot."),
    ("What was my first pet called?", None),
    ("When is my wedding anniversary?", "My parents married in {c}."),
    ("Who is my favourite author?", None),
    ("What's the name of my piano teacher?", "My friend {p} teaches the piano."),
    ("What's my mother's maiden name?", None),
    ("Which gym am I a member of?", "My colleague {p} goes to a gym near the station."),
    ("What is my granddad's name?", "My grandmother is called {p}."),
    ("Which airline do I usually fly with?", None),
    ("What is my phone number?", None),
]
ABSTENTION_VARIANTS = [
    ("What is my brother called?", "My sister {p} is a nurse."),
    ("Which university did I attend?", None),
    ("What's the name of my horse?", None),
    ("Do I have any kids?", "My friend {p} has twins."),
    ("Which film do I love most?", None),
    ("What team do I cheer for?", None),
    ("What does my partner do for work?", None),
    ("What was the name of my first pet?", "My neighbour's first dog was called {p}."),
    ("When did I get married?", None),
    ("Which writer do I like best?", "My sister {p} writes crime novels."),
    ("Who teaches me the piano?", None),
    ("What was my mother's surname before she married?", None),
    ("Which gym do I go to?", None),
    ("What's my grandfather called?", None),
]

FOLLOW_UP_FAMILIES = [
    ("In {m} I spent a week hiking in the {p}.", "Where did I go hiking?", "And when was that again?",
     ["Alps", "Pyrenees", "Dolomites", "Highlands", "Tatras"]),
    ("I went to a conference in {p} in {m}.", "Which city was my conference in?", "When did it take place?",
     ["Vienna", "Dublin", "Helsinki", "Prague", "Milan"]),
    ("My friend's wedding in {p} was in {m}.", "Where was my friend's wedding?", "And which month was it?",
     ["Cork", "Ghent", "Turin", "Malaga", "Bruges"]),
    ("I did a cooking course in {p} in {m}.", "Where did I do my cooking course?", "When was that?",
     ["Naples", "Lyon", "Bologna", "Bilbao", "Marseille"]),
]
FOLLOW_UPS_PER_FAMILY = 4

SMALL_TALK_FIXED = [
    "Hi there!", "Good morning!", "Thanks, that helps a lot.", "ok, got it", "great, thanks!", "cool",
    "see you later", "perfect, thank you", "nice!", "alright", "hello again", "sounds good",
    "Haha, that's funny.", "Hmm, let me think about it.", "Can you say that again more simply?",
    "That makes sense now.", "Good night!", "Thanks for your help today.", "Could you make it shorter?",
    "Wow, I didn't know that.",
]
SMALL_TALK_ASKS = [
    "Can you suggest a good way to {task}?", "What should I keep in mind if I want to {task}?",
    "Do you have any tips on how to {task}?", "How long does it usually take to {task}?",
    "Could you give me a checklist to {task}?", "Is it expensive to {task}?",
]
SMALL_TALK_TASKS = [
    "repaint a kitchen", "clear out a garage", "build a bookshelf", "plant an apple tree", "learn to juggle",
    "make sourdough", "write a cover letter", "clean a cast iron pan", "train for a 10k", "sleep better",
    "fold a fitted sheet", "keep basil alive", "pack for a long flight", "choose a tent", "start journaling",
    "fix a squeaky door", "plan a picnic", "learn chess openings", "store winter clothes", "descale a kettle",
    "remove a wine stain", "choose a houseplant", "memorise a speech", "brew cold coffee", "sharpen a knife",
]
SMALL_TALK_WHYS = [
    "Why is the sky blue?", "How do volcanoes form?", "What makes bread rise?", "How far away is the moon?",
    "Why do cats purr?", "How do bees make honey?", "What is a black hole?", "Why do leaves change colour?",
    "How does a rainbow form?", "What causes thunder?", "How do glaciers move?", "Why is the sea salty?",
]
ASSISTANT_REPLIES = [
    "Got it.", "Noted!", "Thanks for telling me.", "Good to know.", "Sounds lovely.", "Happy to help!",
    "That sounds like a good plan.", "Here is a short answer: start small and build from there.",
    "Interesting! Tell me more if you like.", "I see, thanks.", "Of course.", "Good question!",
    "Let me know if you want more detail.", "That's a nice detail.", "Sure thing.", "Glad that helped.",
    "Take your time.", "Understood.", "Enjoy!", "That sounds fun.", "Sorry to hear that.", "Nice one!",
]

# Haystack templates: other people's facts (near misses of the user's own), everyday happenings,
# and the same topics as the items at other times.
PEOPLE = ["My cousin {person}", "My neighbour {person}", "My colleague {person}", "My friend {person}",
          "My aunt {person}", "My old schoolmate {person}", "My manager {person}", "My uncle {person}",
          "{person} from my book club", "My sister's friend {person}"]
THEIR_FACTS = ["lives in {place}", "works at {company}", "drives a {car}", "goes {sport} on {day}",
               "is allergic to {allergy}", "has a cat named {pet}", "speaks {language}", "plays the {instrument}",
               "loves {dish}", "just turned {number}", "works as a {job}", "flew to {place} last week"]
EVERYDAY = [
    "I watched a documentary about {topic}.", "I read a book about {topic} last week.",
    "I bought {item} at the market.", "I listen to {music} while cooking.", "I keep a journal every evening.",
    "I fixed my bicycle chain yesterday.", "I bake bread on {day}.", "My neighbour plays {music} very loudly.",
    "I went to a {music} concert with friends.", "I want to learn more about {topic}.",
    "I usually wake up at {time}.", "I had {dish} for dinner yesterday.", "I think {topic} is fascinating.",
    "I cleaned the windows this morning.", "I walked to the park after lunch.", "I'm saving up for {item}.",
    "I found an old photo of {person} in a drawer.", "I spent the evening sorting my {collection}.",
    "I tried a new recipe with {dish} today.", "I repotted my {plant} yesterday.",
]
OTHER_TIMES = [
    "Years ago I spent a summer in {place}.", "As a child I visited {place} with my parents.",
    "Back in school I was terrible at {topic}.", "When I was a student I had a summer job in {place}.",
    "Last year I went to a {music} festival.", "A long time ago I tried {sport} once and hated it.",
    "Ages ago I rented a {car} for a road trip.", "In my twenties I spent a winter in {place}.",
    "Once, on a trip to {place}, I lost my passport.", "My grandparents used to live near {place}.",
]
VOCAB = {
    "person": ("Ana Ben Sam Ivy Noah Mia Leo Ava Raj Eva Tom Uma Kai Nia Finn Rosa Ivan Lea Hugo Theo "
               "Yusuf Clara Diego Hana Jonas").split(),
    "place": [*CITIES, *"Bristol Ghent Tromso Cusco Hobart".split()],
    "company": COMPANIES + "Fourth Coffee|Trey Research|Humongous|Blue Yonder|Alpine Ski House".split("|"),
    "car": CARS + "Peugeot Citroen Honda Nissan Seat Opel Dacia".split(),
    "sport": SPORTS + "tennis golf judo karate surfing skiing kayaking hiking archery".split(),
    "day": [*DAYS, "weekends", "weekday mornings", "Friday nights", "Sunday mornings", "Monday evenings",
                   "Tuesday nights", "Thursday mornings", "Saturday afternoons"],
    "allergy": ALLERGIES + "dust|mould|nuts|eggs|wheat|soy|bee stings|cats|grass".split("|"),
    "pet": CAT_NAMES + DOG_NAMES,
    "language": LANGUAGES + "French German Italian Dutch Finnish Arabic Czech".split(),
    "instrument": INSTRUMENTS + "piano violin flute guitar clarinet saxophone ukulele accordion bass".split(),
    "dish": FOODS + "soup risotto dumplings curry omelette falafel goulash".split(),
    "number": [str(n) for n in range(30, 75, 3)],
    "job": JOBS + "plumber dentist pilot librarian chef journalist electrician florist".split(),
    "topic": ("volcanoes|astronomy|beekeeping|medieval castles|origami|glaciers|chess openings|deep sea fish|"
              "ancient Rome|typography|mushrooms|railways|honey bees|the Arctic|jazz history").split("|"),
    "item": ["a new sofa", "a wool blanket", "a rice cooker", "fresh cherries", "a reading lamp", "a camping stove",
             "a kettle", "a rug", "a bread tin", "a tent", "a desk chair", "some candles", "a bird feeder",
             "a picnic basket", "a flower pot"],
    "music": "jazz folk opera techno reggae blues swing soul funk salsa tango gospel punk ska disco".split(),
    "collection": COLLECTIONS + "badges marbles keyrings comics fossils shells records teapots thimbles tickets posters".split(),
    "plant": PLANTS + "parsley lettuce peas beans courgettes rosemary thyme sage lavender dill".split(),
    "time": [f"{h}:{m:02d}" for h in (5, 6, 7, 8, 9) for m in (0, 15, 30)],
}


def _pairs(rng: random.Random, values: list[str], n: int) -> list[tuple[str, str]]:
    """``n`` ordered pairs of distinct values, spread over the list."""
    every = [p for p in itertools.permutations(values, 2)]
    rng.shuffle(every)
    return every[:n]


def _updates(rng: random.Random) -> list[dict]:
    items: list[dict] = []
    for attribute, (old_text, families, question, values) in UPDATE_FAMILIES.items():
        for n, (old, new) in enumerate(_pairs(rng, values, UPDATES_PER_ATTRIBUTE)):
            kind, new_text = families[n % len(families)]
            sport = rng.choice(SPORTS)
            if attribute == "age":
                new = str(int(old) + 1)
            attr = f"schedule:{sport}" if attribute == "schedule" else attribute
            items.append({
                "id": f"u{len(items) + 1:02d}", "attribute": attr, "kind": kind,
                "old": old_text.format(old=old, sport=sport), "new": new_text.format(old=old, new=new, sport=sport),
                "question": question.format(sport=sport), "answer": new, "old_answer": old,
            })
    return items


def _keeps(rng: random.Random) -> list[dict]:
    items: list[dict] = []
    for why, first, second, a_values, b_values, question in KEEP_FAMILIES:
        for _ in range(KEEPS_PER_FAMILY):
            a = rng.choice(a_values)
            b = rng.choice([v for v in b_values if v != a])
            items.append({"id": f"k{len(items) + 1:02d}", "why": why, "first": first.format(a=a),
                          "second": second.format(b=b), "question": question, "answer": f"{a} and {b}"})
    return items


def _withdrawals(rng: random.Random) -> list[dict]:
    items: list[dict] = []
    for n, game in enumerate(GAMES * 2):
        fact, withdrawal = WITHDRAWAL_FAMILIES[n % len(WITHDRAWAL_FAMILIES)]
        items.append({"id": f"w{n + 1:02d}", "fact": fact.format(g=game), "withdrawal": withdrawal.format(g=game),
                      "question": "Which game do I play?"})
    return items


def _facts(rng: random.Random) -> list[dict]:
    items: list[dict] = []
    for statement, question, values in FACT_FAMILIES:
        for value in rng.sample(values, FACTS_PER_FAMILY):
            items.append({"id": f"f{len(items) + 1:02d}", "statement": statement.format(v=value),
                          "question": question, "answer": value})
    return items


def _multi(rng: random.Random) -> list[dict]:
    items: list[dict] = []
    for statements, question, a_values, b_values in MULTI_FAMILIES:
        for _ in range(MULTI_PER_FAMILY):
            a = rng.choice(a_values)
            b = rng.choice([v for v in b_values if v != a])
            items.append({"id": f"m{len(items) + 1:02d}", "question": question, "answer": f"{a} and {b}",
                          "statements": [statements[0].format(a=a), statements[1].format(b=b)]})
    return items


def _temporal(rng: random.Random) -> list[dict]:
    items: list[dict] = []
    for n in range(16):
        (a_text, a_short), (b_text, b_short) = rng.sample(EVENTS, 2)
        city = rng.choice(CITIES)
        month = rng.randrange(1, 11)
        day_a, day_b = rng.randint(1, 14), rng.randint(15, 28)
        events = [
            {"statement": a_text.format(when=f"{day_a} {MONTHS[month - 1]}", city=city), "short": a_short.format(city=city)},
            {"statement": b_text.format(when=f"{day_b} {MONTHS[month - 1]}", city=city), "short": b_short.format(city=city)},
        ]
        if n % 2:  # the later event is told first half of the time
            events.reverse()
        first = events[0] if n % 2 == 0 else events[1]
        items.append({"id": f"t{n + 1:02d}", "events": events, "answer": first["short"],
                      "question": f"Which happened first: I {events[0]['short']}, or I {events[1]['short']}?"})
    return items


def _abstention(rng: random.Random) -> list[dict]:
    items: list[dict] = []
    for question, near in ABSTENTION + ABSTENTION_VARIANTS:
        item = {"id": f"a{len(items) + 1:02d}", "question": question}
        if near:
            item["near_miss"] = near.format(p=rng.choice(VOCAB["person"]), c=rng.choice(CITIES))
        items.append(item)
    return items


def _follow_ups(rng: random.Random) -> list[dict]:
    items: list[dict] = []
    for statement, first, follow, places in FOLLOW_UP_FAMILIES:
        for place in rng.sample(places, FOLLOW_UPS_PER_FAMILY):
            month = rng.choice(MONTHS)
            items.append({"id": f"r{len(items) + 1:02d}", "statement": statement.format(p=place, m=month),
                          "first_question": first, "follow_up": follow, "answer": month})
    return items


def _haystack() -> dict:
    small_talk = SMALL_TALK_FIXED + SMALL_TALK_WHYS + [
        ask.format(task=task) for ask, task in zip(itertools.cycle(SMALL_TALK_ASKS), SMALL_TALK_TASKS * 5)
    ]
    templates = [f"{who} {what}." for who in PEOPLE for what in THEIR_FACTS] + EVERYDAY + OTHER_TIMES
    return {"small_talk": list(dict.fromkeys(small_talk)), "assistant_replies": ASSISTANT_REPLIES,
            "templates": templates, "vocab": {slot: list(dict.fromkeys(v)) for slot, v in VOCAB.items()}}


def build() -> dict:
    rng = random.Random(SEED)
    return {
        "split": "dev",
        "version": 1,
        "about": "Dev split written by memory_evaluation/make_dataset.py from its phrasing families and "
                 "vocabulary lists (tune on this one only).",
        "updates": _updates(rng), "keeps": _keeps(rng), "withdrawals": _withdrawals(rng), "facts": _facts(rng),
        "multi_session": _multi(rng), "temporal": _temporal(rng), "abstention": _abstention(rng),
        "follow_ups": _follow_ups(rng), "haystack": _haystack(),
    }


def main() -> None:
    data = build()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with open(OUT, "w", encoding="utf-8") as handle:
        json.dump(data, handle, indent=1, ensure_ascii=False)
        handle.write("\n")
    counts = ", ".join(f"{len(v)} {k}" for k, v in data.items() if isinstance(v, list))
    print(f"wrote {OUT} ({counts})")


if __name__ == "__main__":
    main()
