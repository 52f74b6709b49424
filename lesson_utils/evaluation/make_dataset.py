"""Write the shipped synthetic memory-evaluation dataset (deterministic: same file every run).

    python -m lesson_utils.evaluation.make_dataset   # rewrites data/synthetic_memory_eval.json

It is LongMemEval-shaped — users with dated sessions of turns, and questions labelled with one
of LongMemEval's five abilities and the turns that hold the answer — but small, synthetic and
offline, so it can be scored on every commit. Every user gets one question per ability:

* information extraction: one fact stated once ("I'm allergic to shellfish" → "What am I allergic to?");
* multi-session reasoning: the answer is spread over two sessions (a cat in one, a dog in another);
* knowledge updates: a value stated early and changed later; the later turn is the evidence and
  the earlier one is recorded as ``superseded``;
* temporal reasoning: two dated events, asked which came first (both turns are evidence);
* abstention: a question about something the user never said, often a near miss ("my
  brother's name" when only a sister was mentioned): there is no evidence, and the right
  recall is nothing.

Plus distractor sessions and a few phatic turns ("thanks!") that need no memory at all. The
questions are worded differently from the statements on purpose (paraphrases), so word
matching alone does not solve them.
"""

from __future__ import annotations

import json
import random
from datetime import date, timedelta
from pathlib import Path

SEED = 11
USERS = 48
OUT = Path(__file__).with_name("data") / "synthetic_memory_eval.json"

NAMES = (
    "Alex Priya Kenji Lisa Omar Zoe Ben Ana Sam Ivy Noah Mia Leo Ava Raj Eva Tom Uma Kai Nia Ola Finn Rosa "
    "Ivan Lea Hugo Maya Theo Nora Yusuf Clara Diego Hana Jonas Amara Felix Sofia Mateo Lina Arjun Elif Marco "
    "Greta Tariq Ines Paulo Keiko Dara"
).split()
CITIES = "Oslo Lisbon Nairobi Kyoto Lima Quebec Tunis Hanoi Perth Bergen Porto Accra Krakow Austin Seville Riga".split()
COMPANIES = "Contoso Fabrikam Northwind Tailspin Litware Adatum Woodgrove Proseware Lamna Wingtip".split()
JOBS = "nurse teacher welder architect pharmacist baker translator surveyor".split()
CARS = "Toyota Volvo Skoda Kia Subaru Fiat Renault Mazda".split()
SPORTS = "climbing swimming rowing fencing cycling yoga".split()
DAYS = "Mondays Tuesdays Wednesdays Thursdays Fridays Saturdays Sundays".split()
ALLERGIES = "shellfish peanuts pollen penicillin sesame kiwi latex".split()
SIBLING_NAMES = "Nora Mila Tessa Ruth Greta Leila Hanna Iris".split()
FOODS = "ramen lasagne pierogi tagine laksa paella bibimbap moussaka".split()
INSTRUMENTS = "cello trumpet banjo harp oboe drums".split()
CAT_NAMES = "Miso Tofu Pickle Mochi Olive Pepper Biscuit Juniper".split()
DOG_NAMES = "Rex Bruno Luna Scout Ziggy Maple Otto Pip".split()
LANGUAGES = "Spanish Japanese Swahili Polish Turkish Korean Greek Hindi".split()
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
DISTRACTORS = [  # everyday statements that answer none of the questions (slots filled per user)
    "I watched a documentary about {topic}.", "I read a book about {topic} last week.",
    "I am planning to {task}.", "I bought {item} at the market.", "I listen to {music} while cooking.",
    "My favourite colour is {colour}.", "I keep a journal every evening.", "I grow {plant} on my balcony.",
    "I am saving up for {item}.", "I volunteer at the library on weekends.", "I prefer {drink} over {drink2}.",
    "I collect old {collection}.", "I fixed my bicycle chain yesterday.", "I bake bread on {day}.",
    "My neighbour plays {music} very loudly.", "I went to a {music} concert with friends.",
    "I want to learn more about {topic}.", "I usually wake up at {hour} o'clock.",
    "I had {dish} for dinner yesterday.", "I think {topic} is fascinating.",
]
TOPICS = "volcanoes astronomy beekeeping medieval castles origami glaciers chess openings deep sea fish".split(" ")
TASKS = ["repaint the kitchen", "clear out the garage", "build a bookshelf", "plant an apple tree", "visit a museum"]
ITEMS = ["a new sofa", "a wool blanket", "a rice cooker", "fresh cherries", "a reading lamp", "a camping stove"]
MUSIC = "jazz folk opera techno reggae blues".split()
COLOURS = "green teal orange purple yellow navy".split()
PLANTS = "tomatoes basil chillies strawberries mint".split()
DRINKS = "tea coffee cocoa lemonade".split()
COLLECTIONS = "postcards stamps coins maps vinyl records".split(" ")
DISHES = "soup risotto dumplings curry omelette".split()
ACKS = ["Got it.", "Noted!", "Thanks for telling me.", "Good to know.", "Sounds lovely."]
PHATIC = [
    "Thanks!", "Hi there!", "ok, got it", "great, thanks a lot!", "Good morning!", "cool", "see you later",
    "perfect, thank you", "nice!", "alright", "hello again", "sounds good",
]


def _when(day: date) -> str:
    return f"{day.day} {MONTHS[day.month - 1]}"


def _user(index: int, rng: random.Random) -> dict:
    name = NAMES[index]
    user_id = f"eval-{index:02d}-{name.lower()}"
    start = date(2024, 1, 8) + timedelta(days=7 * index)
    sessions: list[list[tuple[str, str, str | None]]] = [[] for _ in range(6)]  # (role, text, tag)

    def say(session: int, text: str, tag: str | None = None) -> None:
        sessions[session].append(("user", text, tag))
        sessions[session].append(("assistant", rng.choice(ACKS), None))

    say(0, f"Hi! My name is {name}.")
    questions: list[dict] = []

    # information extraction
    kind = index % 5
    if kind == 0:
        allergy = rng.choice(ALLERGIES)
        say(1, f"I'm allergic to {allergy}.", "ie")
        questions.append(dict(ability="information_extraction", question="What am I allergic to?", answer=allergy))
    elif kind == 1:
        sister = rng.choice(SIBLING_NAMES)
        say(2, f"My sister is called {sister}.", "ie")
        questions.append(dict(ability="information_extraction", question="What's my sister's name?", answer=sister))
    elif kind == 2:
        food = rng.choice(FOODS)
        say(1, f"My favourite food is {food}.", "ie")
        questions.append(dict(ability="information_extraction", question="Which dish do I like most?", answer=food))
    elif kind == 3:
        instrument = rng.choice(INSTRUMENTS)
        say(3, f"I play the {instrument} in a band.", "ie")
        questions.append(dict(ability="information_extraction", question="Which instrument do I play?", answer=instrument))
    else:
        birthday = _when(date(1990, rng.randint(1, 12), rng.randint(1, 28)))
        say(2, f"My birthday is on {birthday}.", "ie")
        questions.append(dict(ability="information_extraction", question="When is my birthday?", answer=birthday))

    # multi-session reasoning: two statements, two sessions
    if index % 2 == 0:
        cat, dog = rng.choice(CAT_NAMES), rng.choice(DOG_NAMES)
        say(1, f"I have a cat named {cat}.", "ms")
        say(4, f"I also have a dog called {dog}.", "ms")
        questions.append(dict(ability="multi_session", question="What are my pets called?", answer=f"{cat} and {dog}"))
    else:
        first, second = rng.sample(LANGUAGES, 2)
        say(0, f"I speak {first}.", "ms")
        say(3, f"I'm learning {second} too.", "ms")
        questions.append(dict(ability="multi_session", question="Which languages do I know or study?",
                              answer=f"{first} and {second}"))

    # knowledge update: old value early, new value later
    kind = index % 4
    if kind == 0:
        old, new = rng.sample(CITIES, 2)
        say(0, f"I live in {old}.", "old")
        say(4, rng.choice([f"I live in {new} now.", f"I moved to {new} last month, so that is home now."]), "new")
        questions.append(dict(ability="knowledge_update", question="Which city is my home?", answer=new, old=old))
    elif kind == 1:
        (old, new), job = rng.sample(COMPANIES, 2), rng.choice(JOBS)
        say(1, f"I work at {old} as a {job}.", "old")
        say(5, f"I started a new job at {new}.", "new")
        questions.append(dict(ability="knowledge_update", question="Who is my employer?", answer=new, old=old))
    elif kind == 2:
        old, new = rng.sample(CARS, 2)
        say(1, f"I drive a {old}.", "old")
        say(4, f"I sold my {old} and now drive a {new}.", "new")
        questions.append(dict(ability="knowledge_update", question="What car do I have?", answer=new, old=old))
    else:
        sport = rng.choice(SPORTS)
        old, new = rng.sample(DAYS, 2)
        say(0, f"I go {sport} on {old}.", "old")
        say(5, f"I moved {sport} to {new}.", "new")
        questions.append(dict(ability="knowledge_update", question=f"Which day is my {sport} day?", answer=new, old=old))

    # temporal reasoning: two dated events in two sessions
    (a_text, a_short), (b_text, b_short) = rng.sample(EVENTS, 2)
    city = rng.choice(CITIES)
    day_a = start + timedelta(days=rng.randint(1, 20))
    day_b = day_a + timedelta(days=rng.randint(3, 30))
    first_is_a = rng.random() < 0.5
    a_day, b_day = (day_a, day_b) if first_is_a else (day_b, day_a)
    say(2, a_text.format(when=_when(a_day), city=city), "tr")
    say(3, b_text.format(when=_when(b_day), city=city), "tr")
    a_q, b_q = a_short.format(city=city), b_short.format(city=city)
    questions.append(dict(ability="temporal_reasoning", question=f"Which happened first: I {a_q}, or I {b_q}?",
                          answer=a_q if first_is_a else b_q))

    # abstention: never said (often a near miss of something that was said)
    absent = [
        "What is my brother's name?", "Where did I go to university?", "What is my horse called?",
        "How many children do I have?", "What is my favourite film?", "What is my blood type?",
        "Which football team do I support?", "What is my partner's job?",
    ]
    questions.append(dict(ability="abstention", question=absent[index % len(absent)], answer=None))

    drinks = rng.sample(DRINKS, 2)
    for template in rng.sample(DISTRACTORS, 12):  # distractors, spread over the sessions
        say(rng.randrange(6), template.format(
            topic=rng.choice(TOPICS), task=rng.choice(TASKS), item=rng.choice(ITEMS), music=rng.choice(MUSIC),
            colour=rng.choice(COLOURS), plant=rng.choice(PLANTS), drink=drinks[0], drink2=drinks[1],
            collection=rng.choice(COLLECTIONS), day=rng.choice(DAYS), hour=rng.randint(5, 9),
            dish=rng.choice(DISHES)))

    # turn ids, evidence and the dated sessions
    out_sessions: list[dict] = []
    by_tag: dict[str, list[str]] = {}
    for s, turns in enumerate(sessions):
        session_id = f"{user_id}-s{s}"
        rows = []
        for t, (role, text, tag) in enumerate(turns):
            uuid = f"{session_id}-t{t}"
            rows.append({"uuid": uuid, "role": role, "content": text})
            if tag:
                by_tag.setdefault(tag, []).append(uuid)
        out_sessions.append({"session_id": session_id, "date": (start + timedelta(days=s * 6)).isoformat(), "turns": rows})
    evidence_by_ability = {
        "information_extraction": by_tag.get("ie", []), "multi_session": by_tag.get("ms", []),
        "knowledge_update": by_tag.get("new", []), "temporal_reasoning": by_tag.get("tr", []), "abstention": [],
    }
    out_questions = []
    for n, q in enumerate(questions):
        item = {
            "question_id": f"{user_id}-q{n}", "ability": q["ability"], "question": q["question"],
            "answer": q["answer"], "evidence": evidence_by_ability[q["ability"]],
        }
        if q["ability"] == "knowledge_update":
            item["superseded"] = by_tag["old"]
            item["superseded_answer"] = q["old"]
        out_questions.append(item)
    return {
        "user_id": user_id, "sessions": out_sessions, "questions": out_questions,
        "phatic": rng.sample(PHATIC, 2),
    }


def build() -> dict:
    rng = random.Random(SEED)
    return {
        "name": "synthetic-memory-eval",
        "version": 1,
        "about": "LongMemEval-shaped synthetic dataset written by lesson_utils/evaluation/make_dataset.py",
        "users": [_user(i, rng) for i in range(USERS)],
    }


def main() -> None:
    data = build()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with open(OUT, "w", encoding="utf-8") as handle:
        json.dump(data, handle, indent=1, ensure_ascii=False)
        handle.write("\n")
    questions = sum(len(u["questions"]) for u in data["users"])
    print(f"wrote {OUT} ({len(data['users'])} users, {questions} questions)")


if __name__ == "__main__":
    main()
