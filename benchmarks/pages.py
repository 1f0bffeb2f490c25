"""The synthetic write-ups both benchmark sites show (``benchmarks/run.py``) and the cards benchmark draws
(``benchmarks/cards.py``): N pages of seeded random text, each with a repository, tags, a date and a figure."""

from __future__ import annotations

import random
from dataclasses import dataclass

PROJECTS = [
    ("huggingface/transformers", ""),
    ("OpenNMT/CTranslate2", ""),
    ("vllm-project/vllm-metal", ""),
    ("pytorch/pytorch", ""),
    ("triton-lang/triton", ""),
]


TAGS = [
    "attention correctness",
    "SDPA",
    "seq2seq training",
    "inference runtime",
    "model conversion",
    "C++",
    "paged attention",
    "MLX/Metal",
    "kernels",
    "memory",
]


STATUSES = ["merged", "merged", "merged", "open", "closed"]


VOCABULARY = (
    "the decoder attention mask cache layer kernel batch token request model weight tensor shape "
    "position logit bias scale path config loader runtime server queue scheduler stream buffer page "
    "block head query key value output input gradient loss step epoch trainer collator checkpoint "
    "precision float half bfloat rounding overflow underflow drift parity regression release commit "
    "fix test bug issue review merge branch device memory bandwidth latency throughput"
)


WORDS = VOCABULARY.split()


@dataclass(frozen=True)
class Page:
    """One synthetic write-up: everything both variants show."""

    slug: str
    title: str
    repo: str
    pr: int
    status: str
    tags: tuple[str, ...]
    date: str
    summary: str
    sections: tuple[str, ...]  # problem, root cause, fix, verification text
    metric: tuple[str, float, float, str]
    links: tuple[int, ...]  # indices of other pages linked to

    @property
    def key(self) -> str:
        return f"{self.repo.split('/')[1]}#{self.pr}"


def _sentence(rng: random.Random, words: int) -> str:
    text = " ".join(rng.choice(WORDS) for _ in range(words))
    return text[0].upper() + text[1:] + "."


def _paragraph(rng: random.Random, sentences: int) -> str:
    return " ".join(_sentence(rng, rng.randint(8, 16)) for _ in range(sentences))


def make_pages(n: int, seed: int = 1) -> list[Page]:
    rng = random.Random(seed)
    pages = []
    for i in range(n):
        repo, _ = PROJECTS[i % len(PROJECTS)]
        pr = 1000 + i
        name = repo.split("/")[1].lower()
        pages.append(
            Page(
                slug=f"{name}-{pr}",
                title=f"Fix {rng.choice(WORDS)} {rng.choice(WORDS)} in the {rng.choice(WORDS)} path ({i})",
                repo=repo,
                pr=pr,
                status=STATUSES[i % len(STATUSES)],
                tags=tuple(rng.sample(TAGS, rng.randint(1, 3))),
                date=f"{2020 + i % 6}-{1 + i % 12:02d}-{1 + i % 28:02d}",
                summary=_sentence(rng, 18),
                sections=tuple(
                    "\n\n".join(_paragraph(rng, 4) for _ in range(paragraphs)) for paragraphs in (2, 2, 2, 1)
                ),
                metric=(rng.choice(["Latency", "Drift", "Throughput", "Peak memory"]), 10.0 + i, 1.5, "ms"),
                links=tuple(rng.sample(range(n), min(2, n))),
            )
        )
    return pages
