//! Category and the tri-state `is_tech` (reference §3.11, §14): structured value → title
//! dictionary. The dictionary is ordered: when a title names several roles, the earlier (more
//! specific) entry wins, so "Marketing Manager - Developer Tools" is marketing, not software.
//! `is_tech` follows the category's partition; `other` or no category falls to confident
//! title words; otherwise it stays unknown.

use freehire_domain::Category;

use crate::lexicon::{Hit, unanimous};
use crate::title::TitleTerm;

/// Title phrases, most specific first.
pub const TITLE_PHRASES: &[(&str, Category)] = {
    use Category::*;
    &[
        ("legal cashier", Finance),
        ("executive assistant", Operations),
        ("administrative assistant", Operations),
        ("office manager", Operations),
        ("chief of staff", Operations),
        ("business operations", Operations),
        ("revenue operations", Operations),
        ("operations manager", Operations),
        ("customer care", Support),
        ("sales operations", Operations),
        ("bizops", Operations),
        ("product marketing", Marketing),
        ("product marketer", Marketing),
        ("growth marketing", Marketing),
        ("head of growth", Marketing),
        ("growth lead", Marketing),
        ("growth manager", Marketing),
        ("marketing", Marketing),
        ("marketer", Marketing),
        ("seo", Marketing),
        ("social media", Marketing),
        ("community manager", Marketing),
        ("community growth", Marketing),
        ("corporate communications", Marketing),
        ("marketing communications", Marketing),
        ("communications manager", Marketing),
        ("communications specialist", Marketing),
        ("media relations", Marketing),
        ("public relations", Marketing),
        ("brand manager", Marketing),
        ("demand generation", Marketing),
        ("technical recruiter", Recruiting),
        ("recruiter", Recruiting),
        ("recruiting", Recruiting),
        ("sourcer", Recruiting),
        ("talent acquisition", Recruiting),
        ("talent partner", Recruiting),
        ("solutions engineer", SolutionsEngineering),
        ("solutions architect", SolutionsEngineering),
        ("solutions consultant", SolutionsEngineering),
        ("sales engineer", SolutionsEngineering),
        ("forward deployed engineer", SolutionsEngineering),
        ("pre-sales", SolutionsEngineering),
        ("presales", SolutionsEngineering),
        ("account executive", Sales),
        ("business development", Sales),
        ("sales development", Sales),
        ("sales", Sales),
        ("sdr", Sales),
        ("bdr", Sales),
        ("partnerships", Sales),
        ("customer success", CustomerSuccess),
        ("customer happiness", CustomerSuccess),
        ("client success", CustomerSuccess),
        ("customer experience", CustomerSuccess),
        ("account manager", CustomerSuccess),
        ("payroll", Finance),
        ("customer support", Support),
        ("technical support", Support),
        ("support specialist", Support),
        ("support engineer", Support),
        ("customer service", Support),
        ("help desk", Support),
        ("helpdesk", Support),
        ("human resources", Hr),
        ("hr", Hr),
        ("hrbp", Hr),
        ("people partner", Hr),
        ("people operations", Hr),
        ("people ops", Hr),
        ("accountant", Finance),
        ("accounting", Finance),
        ("finance", Finance),
        ("financial analyst", Finance),
        ("controller", Finance),
        ("bookkeeper", Finance),
        ("fp&a", Finance),
        ("treasury", Finance),
        ("smart contract auditor", Security),
        ("auditor", Finance),
        ("counsel", Legal),
        ("lawyer", Legal),
        ("attorney", Legal),
        ("paralegal", Legal),
        ("legal", Legal),
        ("developer advocate", DeveloperRelations),
        ("developer relations", DeveloperRelations),
        ("devrel", DeveloperRelations),
        ("developer evangelist", DeveloperRelations),
        ("technical writer", TechnicalWriting),
        ("technical author", TechnicalWriting),
        ("documentation engineer", TechnicalWriting),
        ("copywriter", Creative),
        ("content writer", Creative),
        ("video editor", Creative),
        ("content creator", Creative),
        ("animator", Creative),
        ("photographer", Creative),
        ("videographer", Creative),
        ("art director", Creative),
        ("creative director", Creative),
        ("product designer", Design),
        ("ux", Design),
        ("ui/ux", Design),
        ("ux/ui", Design),
        ("ui designer", Design),
        ("graphic designer", Design),
        ("web designer", Design),
        ("visual designer", Design),
        ("interaction designer", Design),
        ("motion designer", Design),
        ("user researcher", Design),
        ("content designer", Design),
        ("designer", Design),
        ("mechanical engineer", EngineeringDesign),
        ("civil engineer", EngineeringDesign),
        ("structural engineer", EngineeringDesign),
        ("electrical engineer", EngineeringDesign),
        ("cad designer", EngineeringDesign),
        ("drafter", EngineeringDesign),
        ("hvac", EngineeringDesign),
        ("manufacturing engineer", IndustrialEngineering),
        ("process engineer", IndustrialEngineering),
        ("industrial engineer", IndustrialEngineering),
        ("chemical engineer", IndustrialEngineering),
        ("product manager", Product),
        ("product owner", Product),
        ("product lead", Product),
        ("head of product", Product),
        ("product management", Product),
        ("project manager", ProjectManagement),
        ("program manager", ProjectManagement),
        ("programme manager", ProjectManagement),
        ("scrum master", ProjectManagement),
        ("delivery manager", ProjectManagement),
        ("project coordinator", ProjectManagement),
        ("business analyst", BusinessAnalysis),
        ("business systems analyst", BusinessAnalysis),
        ("machine learning", MlAi),
        ("ml engineer", MlAi),
        ("ml", MlAi),
        ("mlops", MlAi),
        ("deep learning", MlAi),
        ("computer vision", MlAi),
        ("nlp", MlAi),
        ("applied scientist", MlAi),
        ("applied researcher", MlAi),
        ("ai researcher", MlAi),
        ("inference engineer", MlAi),
        ("ai/ml", MlAi),
        ("ai engineer", AiEngineering),
        ("llm engineer", AiEngineering),
        ("applied ai", AiEngineering),
        ("genai engineer", AiEngineering),
        ("data engineer", DataEngineering),
        ("data infrastructure", DataEngineering),
        ("analytics engineer", DataEngineering),
        ("etl developer", DataEngineering),
        ("data scientist", DataScience),
        ("data science", DataScience),
        ("data analyst", DataAnalytics),
        ("business intelligence", DataAnalytics),
        ("bi analyst", DataAnalytics),
        ("bi developer", DataAnalytics),
        ("product analyst", DataAnalytics),
        ("analytics", DataAnalytics),
        ("site reliability", Sre),
        ("sre", Sre),
        ("devops", Devops),
        ("platform engineer", Devops),
        ("infrastructure engineer", Devops),
        ("cloud engineer", Devops),
        ("build engineer", Devops),
        ("release engineer", Devops),
        ("network engineer", NetworkEngineering),
        ("network administrator", NetworkEngineering),
        ("network architect", NetworkEngineering),
        ("security engineer", Security),
        ("security analyst", Security),
        ("security architect", Security),
        ("security operations", Security),
        ("appsec", Security),
        ("penetration tester", Security),
        ("cybersecurity", Security),
        ("cyber security", Security),
        ("information security", Security),
        ("soc analyst", Security),
        ("quality assurance", Qa),
        ("qa", Qa),
        ("test engineer", Qa),
        ("sdet", Qa),
        ("tester", Qa),
        ("test automation", Qa),
        ("embedded", Embedded),
        ("firmware", Embedded),
        ("hardware engineer", Hardware),
        ("fpga", Hardware),
        ("asic", Hardware),
        ("blockchain", Blockchain),
        ("smart contract", Blockchain),
        ("solidity", Blockchain),
        ("web3", Blockchain),
        ("ios", Mobile),
        ("android", Mobile),
        ("mobile engineer", Mobile),
        ("mobile developer", Mobile),
        ("react native", Mobile),
        ("flutter", Mobile),
        ("frontend", Frontend),
        ("front-end", Frontend),
        ("front end", Frontend),
        ("ui engineer", Frontend),
        ("ui developer", Frontend),
        ("react developer", Frontend),
        ("react engineer", Frontend),
        ("next.js", Frontend),
        ("nextjs", Frontend),
        ("backend", Backend),
        ("back-end", Backend),
        ("back end", Backend),
        ("nodejs engineer", Backend),
        ("node.js engineer", Backend),
        ("node engineer", Backend),
        ("nodejs developer", Backend),
        ("node.js developer", Backend),
        ("ruby engineer", Backend),
        ("ruby developer", Backend),
        ("python engineer", Backend),
        ("python developer", Backend),
        ("java engineer", Backend),
        ("java developer", Backend),
        ("golang engineer", Backend),
        ("golang developer", Backend),
        ("go engineer", Backend),
        ("go developer", Backend),
        ("rust engineer", Backend),
        ("rust developer", Backend),
        ("php developer", Backend),
        (".net developer", Backend),
        ("full stack", Fullstack),
        ("fullstack", Fullstack),
        ("full-stack", Fullstack),
        ("software architect", Architecture),
        ("enterprise architect", Architecture),
        ("cloud architect", Architecture),
        ("data architect", Architecture),
        ("technical architect", Architecture),
        ("systems architect", Architecture),
        ("engineering manager", SoftwareEngineering),
        ("head of engineering", SoftwareEngineering),
        ("director of engineering", SoftwareEngineering),
        ("vp of engineering", SoftwareEngineering),
        ("vp engineering", SoftwareEngineering),
        ("software engineer", SoftwareEngineering),
        ("software engineering", SoftwareEngineering),
        ("software developer", SoftwareEngineering),
        ("software development", SoftwareEngineering),
        ("web developer", SoftwareEngineering),
        ("developer", SoftwareEngineering),
        ("programmer", SoftwareEngineering),
        ("swe", SoftwareEngineering),
        ("ceo", Management),
        ("general manager", Management),
        ("managing director", Management),
        ("country manager", Management),
        ("chief executive", Management),
        ("operations", Operations),
        ("procurement", Operations),
        ("supply chain", Operations),
        ("logistics", Operations),
    ]
};

/// Title words that make a title confidently technical or not, when no category settles it.
pub const TECH_WORDS: &[(&str, bool)] = &[
    ("software", true),
    ("developer", true),
    ("programmer", true),
    ("data", true),
    ("machine learning", true),
    ("ai", true),
    ("cloud", true),
    ("infrastructure", true),
    ("research engineer", true),
    ("cyber", true),
    ("it", true),
    ("nurse", false),
    ("driver", false),
    ("cashier", false),
    ("teacher", false),
    ("chef", false),
    ("cook", false),
    ("warehouse", false),
    ("retail", false),
    ("barista", false),
    ("receptionist", false),
    ("instructor", false),
    ("clerk", false),
    ("janitor", false),
    ("housekeeper", false),
    ("caregiver", false),
    ("electrician", false),
    ("plumber", false),
    ("mechanic", false),
    ("pharmacist", false),
    ("physician", false),
    ("therapist", false),
    ("dentist", false),
    ("annotator", false),
];

/// Where a compound title's head (the role it names) ends: at the first spaced dash, bar,
/// colon, comma or opening parenthesis, or at a hyphen joining a word to a capitalised one
/// ("Backend Engineer-Sales Customer Care team"); the whole title when there is none.
pub fn head_end(title: &str) -> usize {
    const SEPARATORS: [&str; 7] = [" - ", " – ", " — ", " | ", ": ", " (", ", "];
    let spaced = SEPARATORS.iter().filter_map(|sep| title.find(sep)).min();
    let bytes = title.as_bytes();
    let joined = (1..bytes.len().saturating_sub(1)).find(|&i| {
        bytes[i] == b'-' && bytes[i - 1].is_ascii_alphabetic() && bytes[i + 1].is_ascii_uppercase()
    });
    spaced.into_iter().chain(joined).min().unwrap_or(title.len())
}

/// The engineering categories: a title whose head names one of them may be made more
/// specific by another of them later in the title ("Software Engineer, Front-end").
const ENGINEERING: &[Category] = {
    use Category::*;
    &[
        SoftwareEngineering,
        Backend,
        Frontend,
        Fullstack,
        Mobile,
        Devops,
        Sre,
        NetworkEngineering,
        DataEngineering,
        DataScience,
        DataAnalytics,
        MlAi,
        AiEngineering,
        Qa,
        Security,
        Hardware,
        Embedded,
        Blockchain,
        Architecture,
    ]
};

/// The category of a title read as a job seeker reads it: the role its head names wins. An
/// engineering head may be made more specific by an engineering phrase later in the title
/// (the most specific wins); nothing else overrides the head. So "Software Engineer,
/// Front-end (SEO)" is frontend, "Software Engineer, Product/UX" software engineering,
/// "Backend Engineer-Sales Customer Care team" backend and "Marketing Manager - Developer
/// Tools" marketing. A head naming no role leaves the whole title to [`from_title`].
pub fn from_title_text(title: &str, hits: &[Hit<TitleTerm>]) -> Option<Category> {
    let lower = title.to_lowercase();
    // Offsets are the lowercased title's: read the head there (equal for ASCII titles).
    let end = if lower.len() == title.len() { head_end(title) } else { head_end(&lower) };
    let Some(head) = from_title_iter(hits.iter().filter(|h| h.end <= end)) else {
        return from_title(hits);
    };
    if !ENGINEERING.contains(&head) {
        return Some(head);
    }
    from_title_iter(hits.iter().filter(|h| match h.term {
        TitleTerm::Category(_, c) => ENGINEERING.contains(&c),
        _ => false,
    }))
}

fn from_title_iter<'a>(hits: impl Iterator<Item = &'a Hit<TitleTerm>>) -> Option<Category> {
    hits.filter_map(|h| match h.term {
        TitleTerm::Category(rank, c) => Some((rank, c)),
        _ => None,
    })
    .min_by_key(|(rank, _)| *rank)
    .map(|(_, c)| c)
}

/// The category of the most specific title phrase.
pub fn from_title(hits: &[Hit<TitleTerm>]) -> Option<Category> {
    hits.iter()
        .filter_map(|h| match h.term {
            TitleTerm::Category(rank, c) => Some((rank, c)),
            _ => None,
        })
        .min_by_key(|(rank, _)| *rank)
        .map(|(_, c)| c)
}

/// Words of a role named after "as a"/"as an"/"as our" that are read as a title.
const ROLE_WORDS: usize = 6;

/// The reference's non-tech-only description match: the role a description names ("As our
/// Financial Accountant, you will…") read with the title dictionary, accepted only when it is a
/// non-tech category (so a description can never make a posting technical).
pub fn from_description(lower: &str) -> Option<Category> {
    for lead in [" as a ", " as an ", " as our "] {
        for (i, _) in lower.match_indices(lead) {
            let rest = &lower[i + lead.len()..];
            let clause = rest.split(['.', ',', ';', ':', '(', ')', '!', '?']).next().unwrap_or("");
            let role: String =
                clause.split_whitespace().take(ROLE_WORDS).collect::<Vec<_>>().join(" ");
            if let Some(c) = from_title(&crate::title::scan_title(&role))
                && c.is_tech() == Some(false)
            {
                return Some(c);
            }
        }
    }
    None
}

/// `is_tech`: the category's partition, else confident title words (a conflict settles
/// nothing), else unknown.
pub fn is_tech(category: Option<Category>, hits: &[Hit<TitleTerm>]) -> Option<bool> {
    if let Some(t) = category.and_then(Category::is_tech) {
        return Some(t);
    }
    unanimous(hits.iter().filter_map(|h| match h.term {
        TitleTerm::Tech(t) => Some(t),
        _ => None,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::title::scan_title;

    // scenario: Non-tech description match
    #[test]
    fn description_table() {
        let cases = [
            ("how you will make an impact as our (senior) financial accountant, you will", None),
            (
                "how you will make an impact as our financial accountant, you will",
                Some(Category::Finance),
            ),
            (
                "you will join us as a recruiter for our engineering teams",
                Some(Category::Recruiting),
            ),
            ("as a senior software engineer you will", None),
            ("as an organization we value humility", None),
            ("work with sales as a partner", None),
        ];
        for (text, want) in cases {
            assert_eq!(from_description(text), want, "{text:?}");
        }
    }

    // scenario: Specific wins
    // scenario: Title words
    #[test]
    fn title_table() {
        use Category::*;
        #[rustfmt::skip]
        let cases: &[(&str, Option<Category>, Option<bool>)] = &[
            ("Senior Software Engineer", Some(SoftwareEngineering), Some(true)),
            ("Marketing Manager - Developer Tools", Some(Marketing), Some(false)),
            ("Technical Product Marketing Manager", Some(Marketing), Some(false)),
            ("Senior Frontend Engineer", Some(Frontend), Some(true)),
            ("Customer Data Scientist - Experimentation", Some(DataScience), Some(true)),
            ("Technical Recruiter, Research", Some(Recruiting), Some(false)),
            ("Executive Assistant to CEO", Some(Operations), Some(false)),
            ("Founding Account Executive", Some(Sales), Some(false)),
            ("Cluster Infrastructure Engineer", Some(Devops), Some(true)),
            ("Fullstack Engineer (Product & Open Source)", Some(Fullstack), Some(true)),
            ("Head of Data", None, Some(true)),
            ("Registered Nurse", None, Some(false)),
            ("Evals Lead", None, None),
            ("Mechanical Engineer", Some(EngineeringDesign), Some(false)),
            ("Senior NodeJS Engineer - Remote Europe", Some(Backend), Some(true)),
            ("Quality Assurance Engineer", Some(Qa), Some(true)),
            ("Product Manager, Voice Agents", Some(Product), Some(true)),
            ("Payroll Support Specialist", Some(Finance), Some(false)),
            ("Technology and Communications Sector Leader", None, None),
        ];
        for (title, cat, tech) in cases {
            let hits = scan_title(title);
            let c = from_title(&hits);
            assert_eq!((c, is_tech(c, &hits)), (*cat, *tech), "{title:?}");
        }
    }
}
