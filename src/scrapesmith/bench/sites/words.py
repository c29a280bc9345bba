"""Vocabulary the generators draw from: names, places, research and business words.

Fixed lists (no external data) so every value on the demo web is reproducible from the seed alone.
"""

FIRST_NAMES = (
    "Ada Alan Amara Anika Arjun Beatriz Bruno Camille Chen Dalia Daniel Elena Emeka Farah Felix Gustavo "
    "Hana Hugo Ines Ivan Jana Jonas Kai Keiko Lars Leila Lucas Maya Mateo Mei Nadia Niko Olga Omar Priya "
    "Rafael Rosa Sami Sofia Tariq Tomas Ula Vera Wen Yara Yusuf Zoe Ingrid Kofi Lena Marco Noor Pablo"
).split()

LAST_NAMES = (
    "Abara Berg Castillo Dubois Eriksen Fischer Gomez Haddad Ito Jansen Kowalski Lindqvist Moreau Nakamura "
    "Okafor Petrov Quinn Rossi Silva Tanaka Urban Varga Weber Xu Yilmaz Zhang Almeida Brennan Costa Dimitrov "
    "Ekström Ferreira Grant Hoffmann Ivanova Jovanovic Kim Larsen Mendes Novak Oliveira Park Reyes Sato"
).split()

CITIES = ("Berlin", "London", "Toronto", "Austin", "Singapore", "Lisbon", "Remote")

RESEARCH_ADJECTIVES = (
    "Scalable Robust Efficient Sparse Adaptive Contrastive Hierarchical Causal Federated Differentiable "
    "Self-Supervised Multilingual Probabilistic Lightweight Interpretable Compositional Few-Shot Continual"
).split()

RESEARCH_METHODS = (
    "Transformers|Graph Networks|Diffusion Models|Retrieval Augmentation|State Space Models|Mixture of "
    "Experts|Contrastive Pretraining|Program Synthesis|Tree Search|Optimal Transport|Neural Fields|"
    "Kernel Methods|Variational Inference|Prompt Tuning|Distillation|Attention Routing"
).split("|")

RESEARCH_TASKS = (
    "Web Data Extraction|Document Understanding|Code Generation|Semantic Parsing|Image Segmentation|"
    "Video Captioning|Time Series Forecasting|Question Answering|Machine Translation|Depth Estimation|"
    "Entity Linking|Speech Recognition|Table Understanding|Relation Extraction|Object Detection|"
    "Dialogue Systems|Anomaly Detection|Summarization"
).split("|")

ABSTRACT_SENTENCES = (
    "We study {task} under realistic constraints on data and compute.",
    "Existing approaches to {task} rely on {other}, which limits their generality.",
    "We propose {method_lower}-based models that {verb} without task-specific supervision.",
    "Our approach {verb} while using {pct}% fewer parameters than strong baselines.",
    "Experiments on {n} benchmarks show consistent gains of {gain} points on average.",
    "We further analyse failure cases and release our code and data.",
    "A theoretical analysis explains when {method_lower} help and when they do not.",
    "Ablations confirm that each component contributes to the final accuracy.",
)

ABSTRACT_VERBS = (
    "generalise across domains", "scale to long inputs", "remain stable under noise",
    "transfer to unseen languages", "match supervised accuracy", "reduce annotation cost",
)

BUSINESS_TOPICS = (
    "Observability|Data pipelines|Zero trust|Cost control|Incident response|Feature flags|Vector search|"
    "Edge caching|Compliance automation|Developer experience|Query performance|Multi-region failover|"
    "Access reviews|Schema migrations|Customer onboarding|Release engineering"
).split("|")

BLOG_PATTERNS = (
    "How we rebuilt {topic} for scale",
    "{topic}: five lessons from our customers",
    "Announcing {product} {version}",
    "A practical guide to {topic_lower}",
    "Why {topic_lower} matters in {year}",
    "Behind the scenes: {topic_lower} at {company}",
    "What's new in {product} this quarter",
    "{topic} without the headaches",
)

INDUSTRIES = ("Retail", "Healthcare", "Financial services", "Logistics", "Media", "Education")

CUSTOMER_COMPANIES = (
    "Brightline Retail|Harbor Health|Keystone Bank|Nimbus Freight|Orbit Media|Summit Learning|Cobalt "
    "Insurance|Fernway Foods|Pioneer Energy|Quarry Labs|Redwood Clinics|Tidewater Ports|Umbra Games|"
    "Vantage Travel|Willow Pharmacy|Zenith Motors|Alder Logistics|Beacon Schools"
).split("|")

ROLES = (
    "CTO|VP of Engineering|Head of Data|Director of IT|Chief Information Officer|Platform Lead|"
    "Head of Security|Engineering Manager|COO|Data Science Lead"
).split("|")

TESTIMONIAL_SENTENCES = (
    "We cut our reporting time from days to minutes.",
    "The onboarding was the smoothest we have ever had with a vendor.",
    "Our engineers finally trust the numbers they ship.",
    "We retired three legacy tools in the first quarter.",
    "Support answers within the hour, every time.",
    "It paid for itself before the first renewal.",
    "Outages that used to take a night now take a coffee break.",
    "Our auditors were impressed by how little work the review took.",
    "We scaled to ten times the traffic without adding headcount.",
    "The product feels like it was built by people who have been on call.",
)

JOB_TITLES = {
    "Engineering": ("Backend Engineer", "Frontend Engineer", "Site Reliability Engineer", "Data Engineer",
                    "Platform Engineer", "Security Engineer", "Machine Learning Engineer"),
    "Product": ("Product Manager", "Technical Product Manager", "Product Analyst"),
    "Design": ("Product Designer", "UX Researcher", "Brand Designer"),
    "Sales": ("Account Executive", "Sales Development Representative", "Solutions Engineer"),
    "Marketing": ("Content Marketing Manager", "Growth Marketer", "Product Marketing Manager"),
    "Customer Success": ("Customer Success Manager", "Support Engineer", "Implementation Consultant"),
    "Finance": ("Financial Analyst", "Revenue Accountant", "Procurement Specialist"),
}

SENIORITY = ("", "", "Senior ", "Senior ", "Staff ", "Junior ", "Lead ")

EMPLOYMENT_TYPES = ("Full-time", "Full-time", "Full-time", "Part-time", "Contract")

PUBLISHERS = (
    "Harbor House Press|Northlight Books|Quill & Ember|Meridian Publishing|Blue Heron Editions|"
    "Larkspur Press|Copperfield & Sons|Atlas Academic"
).split("|")

BOOK_TITLE_PARTS = (
    ("The", "A"),
    ("Silent", "Last", "Hidden", "Crimson", "Winter", "Lost", "Golden", "Quiet", "Distant", "Paper",
     "Broken", "Northern", "Salt", "Glass", "Midnight"),
    ("Garden", "Harbor", "Orchard", "Kingdom", "Lighthouse", "Archive", "River", "Compass", "Atlas",
     "Library", "Mountain", "Season", "Cartographer", "Letters", "Engine"),
)

BOOK_FORMATS = ("Hardcover", "Paperback", "Paperback", "Mass Market Paperback")
