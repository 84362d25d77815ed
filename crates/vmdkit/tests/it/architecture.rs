//! The rules of ARCHITECTURE.md that a program can check, read from the workspace's sources:
//! the library's stages point one way, no two modules of one folder import each other, no
//! command imports another, no library message names a command-line flag or command, and no
//! source file outgrows 500 lines.
//!
//! The reading is deliberately simple (paths that start with `crate::`, `super::` or `self::`,
//! grouped `use` trees included; comments and `#[cfg(test)]` modules left out), which is enough
//! for this codebase's style: every import in it is written that way.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The library's stages, lowest first, as the numbered list under "# Stages" in lib.rs's
/// documentation gives them (the one place the order is written): each stage the module names
/// of its item, in backticks or doc links.
fn stages(lib_rs: &str) -> Vec<Vec<String>> {
    let mut stages: Vec<Vec<String>> = Vec::new();
    let mut inside = false;
    for line in lib_rs.lines() {
        let Some(doc) = line.strip_prefix("//!") else {
            continue;
        };
        let doc = doc.trim();
        if doc == "# Stages" {
            inside = true;
            continue;
        }
        if !inside {
            continue;
        }
        if doc.starts_with('#') || doc.starts_with("```") {
            break;
        }
        let numbered = doc.split_once(". ").filter(|(n, _)| n.parse::<u32>().is_ok());
        let text = match numbered {
            Some((_, rest)) => {
                stages.push(Vec::new());
                rest
            }
            None if !stages.is_empty() && line.starts_with("//!    ") => doc,
            None => continue,
        };
        // Only the part before a parenthesis names modules; the rest explains.
        let names = text.split('(').next().unwrap_or("");
        for quoted in names.split('`').skip(1).step_by(2) {
            stages.last_mut().unwrap().push(quoted.to_string());
        }
    }
    stages
}

const MAX_LINES: usize = 500;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// One source file: its module path (`["format", "layout"]`), where it is, and its code with
/// comments and test modules removed.
struct Source {
    module: Vec<String>,
    path: PathBuf,
    code: String,
    lines: usize,
}

fn sources(src: &Path) -> Vec<Source> {
    let mut found = Vec::new();
    let mut folders = vec![src.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = fs::read_to_string(&path).unwrap();
                let relative = path.strip_prefix(src).unwrap().with_extension("");
                let mut module: Vec<String> =
                    relative.iter().map(|part| part.to_string_lossy().into_owned()).collect();
                if matches!(module.last().map(String::as_str), Some("mod" | "lib" | "main")) {
                    module.pop();
                }
                found.push(Source {
                    module,
                    lines: text.lines().count(),
                    code: code_of(&text),
                    path,
                });
            }
        }
    }
    found.sort_by(|a, b| a.path.cmp(&b.path));
    found
}

/// The code the rules apply to: without line comments and without the test module that
/// closes a file (`#[cfg(test)] mod …`); files that are themselves unit tests have none.
fn code_of(text: &str) -> String {
    let body = match text.find("#[cfg(test)]\nmod ") {
        Some(at) => &text[..at],
        None => text,
    };
    body.lines().filter(|line| !line.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
}

fn is_test_file(source: &Source) -> bool {
    source.module.iter().any(|part| part == "tests" || part.starts_with("test_"))
}

/// Every module path a file names, made absolute from the crate root.
fn references(source: &Source) -> Vec<Vec<String>> {
    let code = source.code.as_bytes();
    let mut paths = Vec::new();
    let mut at = 0;
    while at < code.len() {
        let rest = &source.code[at..];
        let start = ["crate::", "super::", "self::"]
            .iter()
            .filter_map(|prefix| rest.find(prefix).map(|i| (i, *prefix)))
            .min();
        let Some((offset, _)) = start else { break };
        let begin = at + offset;
        let boundary = begin == 0 || {
            let c = code[begin - 1];
            !(c.is_ascii_alphanumeric() || c == b'_' || c == b':')
        };
        at = begin + 1;
        if !boundary {
            continue;
        }
        let mut tree = Vec::new();
        parse_tree(&source.code[begin..], &mut Vec::new(), &mut tree);
        for relative in tree {
            paths.push(absolute(&source.module, &relative));
        }
    }
    paths
}

/// Reads a `use` tree (or a plain path) into its leaf paths: `a::{b, c::d}` gives `a::b` and
/// `a::c::d`.
fn parse_tree(text: &str, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    let bytes = text.as_bytes();
    let mut at = 0;
    let depth = prefix.len();
    loop {
        while at < bytes.len() && bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        if at < bytes.len() && bytes[at] == b'{' {
            at += 1;
            loop {
                at += parse_tree(&text[at..], prefix, out);
                while at < bytes.len() && bytes[at].is_ascii_whitespace() {
                    at += 1;
                }
                match bytes.get(at) {
                    Some(b',') => at += 1,
                    Some(b'}') => {
                        at += 1;
                        break;
                    }
                    _ => break,
                }
                while at < bytes.len() && bytes[at].is_ascii_whitespace() {
                    at += 1;
                }
                if bytes.get(at) == Some(&b'}') {
                    at += 1;
                    break;
                }
            }
            prefix.truncate(depth);
            return at;
        }
        let start = at;
        while at < bytes.len() && (bytes[at].is_ascii_alphanumeric() || bytes[at] == b'_') {
            at += 1;
        }
        if at == start {
            break;
        }
        prefix.push(text[start..at].to_string());
        if text[at..].starts_with("::") {
            at += 2;
        } else {
            break;
        }
    }
    if prefix.len() > depth {
        out.push(prefix.clone());
    }
    prefix.truncate(depth);
    at
}

fn absolute(module: &[String], relative: &[String]) -> Vec<String> {
    let mut parts = relative.iter().peekable();
    let mut path: Vec<String> = match parts.peek().map(|s| s.as_str()) {
        Some("crate") => {
            parts.next();
            Vec::new()
        }
        _ => module.to_vec(),
    };
    // `super` in `folder/file.rs` is `folder`; in `folder/mod.rs` it is folder's parent: both
    // are the module's parent, which is what popping the module path gives.
    while let Some(part) = parts.peek() {
        match part.as_str() {
            "super" => {
                path.pop();
            }
            "self" => {}
            _ => break,
        }
        parts.next();
    }
    path.extend(parts.cloned());
    path
}

fn crate_sources(name: &str) -> Vec<Source> {
    sources(&workspace().join("crates").join(name).join("src"))
}

/// The root-level re-exports of lib.rs (`pub use format::{Motion, …}`), so that `crate::Motion`
/// counts as a use of `format`.
fn root_reexports(lib: &Source) -> BTreeMap<String, String> {
    let mut names = BTreeMap::new();
    for statement in lib.code.split(';') {
        let statement = statement.trim();
        let Some(tree) = statement.strip_prefix("pub use ") else {
            continue;
        };
        let mut paths = Vec::new();
        parse_tree(tree, &mut Vec::new(), &mut paths);
        for path in paths {
            if let (Some(first), Some(last)) = (path.first(), path.last()) {
                names.insert(last.clone(), first.clone());
            }
        }
    }
    names
}

fn stage_of(stages: &[Vec<String>], module: &str) -> Option<usize> {
    stages.iter().position(|stage| stage.iter().any(|m| m == module))
}

#[test]
fn library_modules_use_only_their_own_stage_or_below() {
    let files = crate_sources("vmdkit");
    let lib = files.iter().find(|f| f.module.is_empty()).unwrap();
    let reexports = root_reexports(lib);
    let lib_rs = fs::read_to_string(&lib.path).unwrap();
    let stages = stages(&lib_rs);
    assert!(stages.len() > 5, "lib.rs lists the stages under # Stages: {stages:?}");
    let mut wrong = BTreeSet::new();
    for file in files.iter().filter(|f| !f.module.is_empty() && !is_test_file(f)) {
        let own = &file.module[0];
        let Some(own_stage) = stage_of(&stages, own) else {
            wrong.insert(format!("{own}: a top-level module missing from lib.rs\'s stages"));
            continue;
        };
        for path in references(file) {
            let Some(first) = path.first() else { continue };
            let used = reexports.get(first).unwrap_or(first);
            if used == own {
                continue;
            }
            if let Some(stage) = stage_of(&stages, used) {
                if stage > own_stage {
                    wrong.insert(format!(
                        "{} uses {} (`{}`), a later stage",
                        file.path.display(),
                        used,
                        path.join("::")
                    ));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.into_iter().collect::<Vec<_>>().join("\n"));
}

/// For each crate, the pairs of sibling modules (files or folders of one folder) where each
/// uses the other.
#[test]
fn no_two_modules_of_one_folder_use_each_other() {
    let mut mutual = Vec::new();
    for name in ["vmdkit", "vmdkit-cli", "vmdkit-py", "vmdkit-draw"] {
        let files = crate_sources(name);
        let uses: Vec<(Vec<String>, Vec<Vec<String>>)> = files
            .iter()
            .filter(|f| !is_test_file(f))
            .map(|f| (f.module.clone(), references(f)))
            .collect();
        let modules: BTreeSet<Vec<String>> = uses
            .iter()
            .flat_map(|(module, _)| (1..=module.len()).map(|n| module[..n].to_vec()))
            .collect();
        let uses_module = |a: &[String], b: &[String]| {
            uses.iter()
                .filter(|(module, _)| module.starts_with(a))
                .any(|(_, paths)| paths.iter().any(|p| p.starts_with(b)))
        };
        for a in &modules {
            for b in modules.range(a.clone()..).skip(1) {
                let siblings = a.len() == b.len() && a[..a.len() - 1] == b[..b.len() - 1];
                if siblings && uses_module(a, b) && uses_module(b, a) {
                    mutual.push(format!("{name}: {} <-> {}", a.join("::"), b.join("::")));
                }
            }
        }
    }
    assert!(mutual.is_empty(), "modules that use each other:\n{}", mutual.join("\n"));
}

#[test]
fn no_command_uses_another_command() {
    let mut wrong = Vec::new();
    for file in crate_sources("vmdkit-cli") {
        let [first, command, ..] = file.module.as_slice() else {
            continue;
        };
        if first != "cmd" || is_test_file(&file) {
            continue;
        }
        for path in references(&file) {
            if path.len() > 1 && path[0] == "cmd" && &path[1] != command {
                wrong.push(format!("{} uses {}", file.path.display(), path.join("::")));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The string literals of `code`, read with enough of Rust's lexing to keep comments, char
/// literals and lifetimes out of them, and to follow strings over line ends and raw strings.
fn string_literals(code: &str) -> Vec<String> {
    let chars: Vec<char> = code.chars().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '/' if chars.get(i + 1) == Some(&'/') => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '/' if chars.get(i + 1) == Some(&'*') => {
                i += 2;
                while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                    i += 1;
                }
                i += 2;
            }
            '\'' => {
                // A char literal ('x', '\n', '\u{..}') or a lifetime ('a): skip either.
                if chars.get(i + 1) == Some(&'\\') {
                    i += 2;
                    while i < chars.len() && chars[i] != '\'' {
                        i += 1;
                    }
                } else if chars.get(i + 2) == Some(&'\'') {
                    i += 2;
                }
                i += 1;
            }
            'r' if matches!(chars.get(i + 1), Some('"' | '#'))
                && (i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_')) =>
            {
                let hashes = chars[i + 1..].iter().take_while(|&&c| c == '#').count();
                let open = i + 1 + hashes;
                if chars.get(open) != Some(&'"') {
                    i += 1;
                    continue;
                }
                let close: String =
                    std::iter::once('"').chain("#".repeat(hashes).chars()).collect();
                let rest: String = chars[open + 1..].iter().collect();
                let end = rest.find(&close).unwrap_or(rest.len());
                found.push(rest[..end].to_string());
                i = open + 1 + rest[..end].chars().count() + close.chars().count();
            }
            '"' => {
                let mut text = String::new();
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    if chars[i] == '\\' {
                        i += 1;
                    }
                    if let Some(&c) = chars.get(i) {
                        text.push(c);
                    }
                    i += 1;
                }
                found.push(text);
                i += 1;
            }
            _ => i += 1,
        }
    }
    found
}

/// Whether a message names a command-line flag (`--layout`) or a command of the `vmdkit`
/// binary (`` `vmdkit check` ``).
fn names_the_command_line(text: &str) -> bool {
    let bytes = text.as_bytes();
    let flag = (0..bytes.len()).any(|i| {
        bytes[i..].starts_with(b"--")
            && bytes.get(i + 2).is_some_and(|c| c.is_ascii_lowercase())
            && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric())
    });
    // Messages name a command as the README does, in backticks; "vmdkit" alone is this
    // project's name, which data and messages may say.
    flag || text.contains("`vmdkit ")
}

/// The library words what is wrong; naming a fix on a command line is the front ends' job.
#[test]
fn no_library_message_names_the_command_line() {
    let mut wrong = Vec::new();
    for file in crate_sources("vmdkit").iter().filter(|f| !is_test_file(f)) {
        for text in string_literals(&file.code) {
            if names_the_command_line(&text) {
                wrong.push(format!("{}: {text:?}", file.path.display()));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_reader_of_strings_follows_rusts_lexing() {
    let code = "let a = \"one \\\"two\\\"\nthree --x\"; // \"not\"\n\
                let b: &'static str = r#\"raw \"q\" `vmdkit check`\"#; let c = '\"'; let d = 'x';";
    let found = string_literals(code);
    assert_eq!(found, ["one \"two\"\nthree --x", "raw \"q\" `vmdkit check`"]);
    assert!(found.iter().all(|text| names_the_command_line(text)));
    assert!(!names_the_command_line("a -- b, 1--2, a vmdkit motion, vmdkit example"));
}

#[test]
fn no_source_file_is_over_500_lines() {
    let mut long = Vec::new();
    for name in ["vmdkit", "vmdkit-cli", "vmdkit-py", "vmdkit-draw", "test-corpus"] {
        for file in crate_sources(name) {
            if file.lines > MAX_LINES {
                long.push(format!("{} ({} lines)", file.path.display(), file.lines));
            }
        }
    }
    assert!(long.is_empty(), "over {MAX_LINES} lines:\n{}", long.join("\n"));
}

#[test]
fn the_reader_of_paths_sees_grouped_imports() {
    let mut paths = Vec::new();
    parse_tree("super::{a::B, c, d::{e, f::G}};", &mut Vec::new(), &mut paths);
    let joined: Vec<String> = paths.iter().map(|p| p.join("::")).collect();
    assert_eq!(joined, ["super::a::B", "super::c", "super::d::e", "super::d::f::G"]);
    let file = Source {
        module: vec!["cmd".into(), "view".into()],
        path: PathBuf::from("cmd/view.rs"),
        code: "use super::render::{camera_sampler, parse_bones};\nlet x = crate::io::read();"
            .into(),
        lines: 2,
    };
    let refs: Vec<String> = references(&file).iter().map(|p| p.join("::")).collect();
    assert_eq!(refs, ["cmd::render::camera_sampler", "cmd::render::parse_bones", "io::read"]);
}
