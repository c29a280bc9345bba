"""Category lexicons: the words whose presence in a domain or on a landing page is evidence about a site.

Words are matched as whole tokens, never as substrings (``essex`` is not ``sex``); a plural ``s`` is
dropped when the singular is listed (``passports``), so a plural that means something else (``arms``) is
listed itself. A *strong* word names the category on its own (``casino``, ``keygen``); an *ambiguous* word does
only with commercial intent beside it (``cheap`` + ``opioids``... ``buy`` + ``pharmacy``) and is cancelled
by benign context (a ``school of pharmacy``, a ``drug policy`` centre). Phrases are token sequences.
These lists describe categories of content in general; they name no site.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Lexicon:
    category: str
    strong: frozenset[str]
    ambiguous: frozenset[str] = frozenset()
    phrases: tuple[tuple[str, ...], ...] = ()


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


def _phrases(*items: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(item.split()) for item in items)


LEXICONS: tuple[Lexicon, ...] = (
    Lexicon(
        "weapons",
        _words("ammo ammunition explosive explosives grenade silencer suppressor ghostgun gunshop gunstore armory "
               "switchblade munitions"),
        _words("gun guns firearm firearms rifle rifles pistol pistols handgun handguns shotgun shotguns revolver "
               "weapon weapons arms knife knives shooting bomb bombs sniper tactical gunsmith ordnance taser"),
        _phrases("ghost gun", "gun shop", "gun store", "buy gun", "3d gun", "assault rifle", "gun sale",
                 "gun parts", "brass knuckles"),
    ),
    Lexicon(
        "drugs",
        _words("opioid opiate heroin cocaine meth methamphetamine amphetamine fentanyl oxycodone oxycontin xanax "
               "mdma lsd ketamine darknet darkweb kush tramadol adderall percocet vicodin mephedrone viagra cialis"),
        _words("drug drugs pharmacy pharma pill pills weed cannabis marijuana dope hemp cbd rx meds steroid "
               "steroids overdose psychedelic psychedelics shroom shrooms narcotic narcotics opium stoner"),
        _phrases("silk road", "online pharmacy", "no prescription", "without prescription", "drug market",
                 "drug marketplace", "darknet market", "buy drug"),
    ),
    Lexicon(
        "counterfeit",
        _words("counterfeit forged forgery"),
        _words("fake passport diploma replica forge fakeid"),
        _phrases(*(f"{adjective} {thing}" for adjective in ("fake", "forged", "counterfeit", "novelty")
                   for thing in ("passport", "id", "license", "licence", "diploma", "degree", "document",
                                 "money", "banknote", "note", "bill", "visa", "certificate")),
                   "replica watch", "replica bag", "counterfeit good", "forged document"),
    ),
    Lexicon(
        "piracy",
        _words("keygen warez nulled cracked serialz crackz bittorrent"),
        _words("pirate pirates pirated piracy torrent torrents crack cracks serial serials leet 1337"),
        _phrases("key gen", "pirate bay", "free movie", "free download", "free stream", "watch free",
                 "full movie", "movie download", "free mp3", "mp3 download", "cracked software",
                 "torrent site", "torrent tracker", "torrent index", "pirated content", "pirated movie",
                 "pirated software", "file sharing", "copyrighted content"),
    ),
    Lexicon(
        "gambling",
        _words("casino casinos sportsbook sportsbooks bookmaker bookmakers bookie bookies roulette blackjack "
               "baccarat jackpot jackpots betting wager wagers wagering gambling pokies sportsbet"),
        _words("bet bets poker lottery lotto bingo odds stake stakes slot slots gamble gambler gamblers"),
        _phrases("sport bet", "free spin", "free bet", "place bet", "fantasy sport", "slot machine",
                 "online poker", "real money"),
    ),
    Lexicon(
        "adult",
        _words("porn porno pornography pornographic xxx hentai nsfw nude nudes naked nudity erotic erotica "
               "fetish milf escort escorts stripper bdsm boob tit slut horny camgirl camgirls sexcam camsex "
               "livesex"),
        _words("adult adults sex sexy dating hookup hookups xx explicit"),
        _phrases("adult friend", "live cam", "sex cam", "adult video", "adult content", "adult entertainment",
                 "sex video", "live sex", "adult webcam", "webcam model", "cam model", "cam site",
                 "sexually explicit", "explicit content", "explicit video", "adult film"),
    ),
    Lexicon(
        "malware",
        _words("ransomware botnet keylogger stresser booter ddos phishing spyware carding exploitkit crypter "
               "rootkit stealer fullz"),
        _words("malware hack hacks hacker hackers hacking virus viruses trojan trojans exploit exploits "
               "cheat cheats dumps spy"),
        _phrases("credit card dump", "exploit kit", "stolen data", "stolen card", "hacking tool",
                 "hacking service", "hacker forum"),
    ),
    Lexicon(
        "harmful",
        _words("nazi nazis neonazi jihadist extremist extremists doxxing doxing gore incel incels "
               "supremacist supremacists"),
        _words("hate hateful troll trolls trolling harassment racist racism extremism"),
        _phrases("white power", "white pride", "race war", "hate speech", "harassment campaign",
                 "anonymous imageboard"),
    ),
    # the seed skips sites that need an account: social media, chat and messaging, fan subscriptions
    Lexicon("login", frozenset(), _words("chat chats messenger messaging social fans followers inbox webmail"),
            _phrases("social network", "social networking", "social media", "instant messaging", "messaging app",
                     "messaging service", "dating app", "dating site", "dating service", "email service",
                     "online banking", "cloud storage", "photo sharing", "video sharing app",
                     "professional network", "subscription platform", "communication platform", "chat app",
                     "chat platform", "voice chat", "group chat", "email provider")),
    # machine hosts as a description names them (the host labels are read by ``INFRA_*`` below)
    Lexicon("api_cdn", frozenset(), frozenset(),
            _phrases("content delivery network", "content delivery", "ad serving", "ad server", "ad network",
                     "ad exchange", "advertising network", "api endpoint", "tag management", "tracking pixel",
                     "static file", "static asset", "web font")),
)

#: Words of commercial intent: beside an ambiguous word they make the evidence strong.
INTENT = _words("buy cheap free online shop store sale order discount deal download direct hub tube club "
                "express fast best now live")

#: Context that marks a site as about a risk rather than selling it (education, research, help, rules).
BENIGN = _words(
    "school college university uni academy institute research science study policy foundation society "
    "association council charity museum history archive library education learning health clinic "
    "hospital medical medicine safety safe prevention prevent aware awareness responsible recovery "
    "rehab treatment help helpline support control stop against anti ban news journal law legal court "
    "government ministry department federation survey anonymous bulletin gazette reform advocacy coalition "
    "alliance agency commission authority harm victim victims survivor survivors violence security "
    "antivirus protection educational academic scientific nonprofit charitable official helping helps "
    "fellowship addiction addicts awareness regulator regulation")

#: Public-suffix labels of institutions (``.edu``, ``.gov.au``, ``.ac.uk``, ``nhs.uk``...).
INSTITUTIONAL_SUFFIX_LABELS = _words("edu gov gouv gob govt mil ac nhs int museum police")

#: Top-level domains of ICANN's adult and gambling namespaces.
CATEGORY_TLDS = {"xxx": "adult", "porn": "adult", "adult": "adult", "sex": "adult",
                 "casino": "gambling", "bet": "gambling", "poker": "gambling", "bingo": "gambling",
                 "lotto": "gambling"}

#: ``4chan``, ``8chan``: a digit before ``chan`` is how anonymous imageboards are named.
IMAGEBOARD = "chan"

#: Media words that, after a leading ``x`` (``x videos``, ``x tube``), are adult-site slang.
X_MEDIA = _words("video tube cam movie pic clip photo")

#: First host labels by convention of machine endpoints and asset hosts (strong) or often so (weak).
INFRA_LABELS_STRONG = _words("api apis cdn cdnjs static assets fonts font ajax s3 storage blob bucket "
                             "rest graphql ws")
INFRA_LABELS_WEAK = _words("img images media files edge cache graph tags tag analytics ads ad pixel "
                           "tracking metrics telemetry gateway content")
#: Tokens inside a registrable name that mark an asset host or ad/tag infrastructure.
INFRA_TOKENS = _words("cdn static apis api")
INFRA_PHRASES = _phrases("user content", "tag manager", "ad server", "ad service")

#: Host labels of sign-in and webmail front doors (strong) or often so (weak).
LOGIN_LABELS_STRONG = _words("mail webmail login signin sso auth accounts account myaccount secure")
LOGIN_LABELS_WEAK = _words("my portal online outlook dashboard console admin app")
#: Registrable-name tokens whose sites sit behind a sign-in when reached through a login-ish label.
ACCOUNT_TOKENS = _words("bank banking")


def singular(token: str) -> str:
    """``passports`` -> ``passport``, ``watches`` -> ``watch``; short words and ``-ss`` words unchanged."""
    if len(token) > 4 and token.endswith(("ches", "shes", "sses", "xes")):
        return token[:-2]
    if len(token) > 3 and token.endswith("s") and not token.endswith("ss"):
        return token[:-1]
    return token


#: The kinds of site the model may name when asked what a site is, and the category each kind falls in;
#: ``safe`` kinds pass, ``unknown`` says nothing. The rules, not the model, turn a kind into a verdict.
KIND_CATEGORY: dict[str, str] = {
    **dict.fromkeys(("news", "shop", "company", "restaurant", "government", "school_or_university", "nonprofit",
                     "health", "sports_club", "reference", "blog", "software", "travel", "entertainment",
                     "religion", "local_business", "forum", "search_engine", "video_sharing"), "safe"),
    **dict.fromkeys(("social_network", "messaging", "dating", "webmail", "online_banking", "cloud_account"),
                    "login"),
    "porn": "adult", "adult_webcam": "adult", "sports_betting": "gambling", "casino": "gambling",
    "torrents": "piracy", "hacking": "malware", "drug_market": "drugs", "weapons_shop": "weapons",
    "fake_documents": "counterfeit", "hate_forum": "harmful", "imageboard": "harmful",
    **dict.fromkeys(("api", "cdn", "ad_server"), "api_cdn"),
    "unknown": "unknown",
}
#: Kinds that are themselves benign context (institutions that inform about a risk rather than sell it).
BENIGN_KINDS = frozenset(("government", "school_or_university", "nonprofit", "health", "news", "reference"))
