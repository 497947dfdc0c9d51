//! Tests of the `conformance` runner binary: what it prints, how it counts, and its exit
//! status, on vector directories made for each test.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A directory under the system's temporary directory, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let unique = format!(
            "httpspan-runner-{}-{}-{}",
            name,
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let path = std::env::temp_dir().join(unique);
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("create the temporary directory");
        TempDir(path)
    }

    /// Writes `lines` as the file `relative` (directories created as needed).
    fn write(&self, relative: &str, lines: &[&str]) -> &Self {
        let path = self.0.join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).expect("create the directories");
        std::fs::write(&path, lines.join("\n") + "\n").expect("write the vector file");
        self
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn run(args: &[&Path]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_conformance"))
        .args(args)
        .output()
        .expect("run the conformance binary")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("the runner prints UTF-8")
}

fn last_line(out: &Output) -> String {
    stdout(out).lines().last().unwrap_or_default().to_string()
}

fn fail_lines(out: &Output) -> Vec<String> {
    stdout(out)
        .lines()
        .filter(|l| l.starts_with("FAIL "))
        .map(String::from)
        .collect()
}

const GET: &str = r#"{"id": "ok/get", "kind": "request", "input": "GET /a?b=c HTTP/1.1\r\nHost: example.com\r\n\r\n", "expect": [{"method": "GET", "target": "/a?b=c", "version": "HTTP/1.1", "headers": [["Host", "example.com"]], "body": "", "keep_alive": true}]}"#;
const POST: &str = r#"{"id": "ok/post", "kind": "request", "input": "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc", "expect": [{"method": "POST", "body": "abc", "content_length": 3, "chunked": false}], "why": "a body by Content-Length"}"#;
const REJECT: &str = r#"{"id": "ok/reject", "kind": "request", "input": "GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", "expect": "reject"}"#;
const RESPONSES: &str = r#"{"id": "ok/responses", "kind": "response", "request_method": ["HEAD", "GET"], "input": "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi", "expect": [{"status": 100}, {"status": 200, "body": ""}, {"status": 200, "reason": "OK", "body": "hi"}]}"#;
const INCOMPLETE: &str = r#"{"id": "ok/incomplete", "kind": "request", "input": "GET / HTTP/1.1\r\nHost: a\r\n\r\nGET /b HTTP/1.1\r\n", "expect": [{"target": "/"}, "incomplete"]}"#;
/// A GET expected to be a POST.
const WRONG: &str = r#"{"id": "wrong/method", "kind": "request", "input": "GET / HTTP/1.1\r\nHost: a\r\n\r\n", "expect": [{"method": "POST"}]}"#;

#[test]
fn a_wrong_case_fails_alone_and_the_exit_status_is_1() {
    let dir = TempDir::new("one-wrong");
    dir.write("cases.jsonl", &[GET, WRONG]);
    let out = run(&[dir.path()]);
    let fails = fail_lines(&out);
    assert_eq!(fails.len(), 1, "{}", stdout(&out));
    assert!(fails[0].starts_with("FAIL wrong/method: "), "{}", fails[0]);
    assert!(fails[0].contains("POST"), "{}", fails[0]);
    assert_eq!(last_line(&out), "1 passed, 1 failed");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn a_wrong_outcome_kind_fails() {
    let dir = TempDir::new("wrong-outcome");
    let accepted = r#"{"id": "wrong/accepted", "kind": "request", "input": "GET / HTTP/1.1\r\nHost: a\r\n\r\n", "expect": "reject"}"#;
    let rejected = r#"{"id": "wrong/rejected", "kind": "request", "input": "GET / HTTP/1.1\r\n\r\n", "expect": [{"method": "GET"}]}"#;
    let extra = r#"{"id": "wrong/extra", "kind": "request", "input": "GET / HTTP/1.1\r\nHost: a\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n", "expect": [{"method": "GET"}]}"#;
    dir.write("cases.jsonl", &[accepted, rejected, extra, GET]);
    let out = run(&[dir.path()]);
    let fails = fail_lines(&out);
    let ids: Vec<&str> = fails.iter().map(|l| l.split(':').next().unwrap()).collect();
    assert_eq!(
        ids,
        [
            "FAIL wrong/accepted",
            "FAIL wrong/rejected",
            "FAIL wrong/extra"
        ],
        "{}",
        stdout(&out)
    );
    assert_eq!(last_line(&out), "1 passed, 3 failed");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn an_all_passing_directory_exits_0() {
    let dir = TempDir::new("all-pass");
    dir.write("a.jsonl", &[GET, POST, REJECT]);
    dir.write("b.jsonl", &["", RESPONSES, INCOMPLETE, ""]);
    let out = run(&[dir.path()]);
    assert_eq!(fail_lines(&out), Vec::<String>::new(), "{}", stdout(&out));
    assert_eq!(last_line(&out), "5 passed, 0 failed");
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn nested_directories_are_read() {
    let dir = TempDir::new("nested");
    dir.write("top.jsonl", &[GET]);
    dir.write("request/framing/deep.jsonl", &[POST, REJECT]);
    dir.write("response/r.jsonl", &[RESPONSES]);
    dir.write("other/wrong/w.jsonl", &[WRONG]);
    let out = run(&[dir.path()]);
    assert_eq!(last_line(&out), "4 passed, 1 failed", "{}", stdout(&out));
    assert_eq!(fail_lines(&out).len(), 1);
    assert_eq!(out.status.code(), Some(1));

    // Several directories add up.
    let second = TempDir::new("nested-second");
    second.write("x/y/z.jsonl", &[INCOMPLETE]);
    let out = run(&[dir.path(), second.path()]);
    assert_eq!(last_line(&out), "5 passed, 1 failed", "{}", stdout(&out));
}

#[test]
fn invalid_lines_are_failures() {
    let not_json = r#"{"id": "bad/json", "kind": "request", "input": "GET"#;
    let wide = r#"{"id": "bad/wide", "kind": "request", "input": "GET /\u0100 HTTP/1.1\r\nHost: a\r\n\r\n", "expect": "reject"}"#;
    let unknown_outcome = r#"{"id": "bad/outcome", "kind": "request", "input": "GET / HTTP/1.1\r\nHost: a\r\n\r\n", "expect": ["maybe"]}"#;
    let unknown_expect = r#"{"id": "bad/expect", "kind": "request", "input": "GET / HTTP/1.1\r\nHost: a\r\n\r\n", "expect": "accept"}"#;
    let cases: &[(&str, &str)] = &[
        (not_json, "invalid vector: not JSON"),
        (
            wide,
            "invalid vector: input: code point U+0100 above U+00FF",
        ),
        (unknown_outcome, "invalid vector: unknown outcome"),
        (unknown_expect, "invalid vector: `expect`"),
    ];
    for (line, message) in cases {
        let dir = TempDir::new("invalid");
        dir.write("v.jsonl", &[GET, line, POST]);
        let out = run(&[dir.path()]);
        let fails = fail_lines(&out);
        assert_eq!(fails.len(), 1, "{line}: {}", stdout(&out));
        assert!(fails[0].contains(message), "{line}: {}", fails[0]);
        assert_eq!(last_line(&out), "2 passed, 1 failed", "{line}");
        assert_eq!(out.status.code(), Some(1), "{line}");
    }
    // A line with no id is named by its file and line number.
    let dir = TempDir::new("invalid-place");
    dir.write("v.jsonl", &[GET, not_json]);
    let out = run(&[dir.path()]);
    let fails = fail_lines(&out);
    assert_eq!(fails.len(), 1, "{}", stdout(&out));
    assert!(fails[0].contains("v.jsonl:2: "), "{}", fails[0]);
    // With an id, the id names it.
    let dir = TempDir::new("invalid-id");
    dir.write("v.jsonl", &[wide]);
    let out = run(&[dir.path()]);
    assert!(
        fail_lines(&out)[0].starts_with("FAIL bad/wide: "),
        "{}",
        stdout(&out)
    );
    assert_eq!(last_line(&out), "0 passed, 1 failed");
}

#[test]
fn a_missing_directory_is_a_usage_error() {
    let out = run(&[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("usage"));

    let gone = TempDir::new("gone");
    let path = gone.path().to_path_buf();
    drop(gone);
    let out = run(&[&path]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a directory"));
}

#[test]
fn filter_runs_only_matching_ids() {
    let dir = TempDir::new("filter");
    dir.write("v.jsonl", &[GET, POST, WRONG]);
    let out = Command::new(env!("CARGO_BIN_EXE_conformance"))
        .arg("--filter")
        .arg("ok/")
        .arg(dir.path())
        .output()
        .expect("run the conformance binary");
    assert_eq!(last_line(&out), "2 passed, 0 failed", "{}", stdout(&out));
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn options_turn_on_leniency_and_an_unknown_option_fails() {
    let bare_lf = r#"{"id": "opt/bare-lf", "kind": "request", "options": ["bare_lf"], "input": "GET / HTTP/1.1\nHost: a\n\n", "expect": [{"method": "GET", "headers": [["Host", "a"]]}]}"#;
    let strict = r#"{"id": "opt/strict", "kind": "request", "input": "GET / HTTP/1.1\nHost: a\n\n", "expect": "reject"}"#;
    let folded = r#"{"id": "opt/fold", "kind": "request", "options": ["obs_fold", "bare_lf"], "input": "GET / HTTP/1.1\r\nHost: a\r\nX: a \r\n  b\n\tc\r\n\r\n", "expect": [{"headers": [["Host", "a"], ["X", "a b c"]]}]}"#;
    let too_lenient = r#"{"id": "opt/wrong", "kind": "request", "options": ["bare_lf"], "input": "GET / HTTP/1.1\nHost: a\n\n", "expect": "reject"}"#;
    let unknown = r#"{"id": "opt/unknown", "kind": "request", "options": ["bare-lf"], "input": "GET / HTTP/1.1\nHost: a\n\n", "expect": [{"method": "GET"}]}"#;
    let not_list = r#"{"id": "opt/not-list", "kind": "request", "options": "bare_lf", "input": "GET / HTTP/1.1\nHost: a\n\n", "expect": [{"method": "GET"}]}"#;
    let dir = TempDir::new("options");
    dir.write(
        "v.jsonl",
        &[bare_lf, strict, folded, too_lenient, unknown, not_list],
    );
    let out = run(&[dir.path()]);
    let fails = fail_lines(&out);
    assert_eq!(fails.len(), 3, "{}", stdout(&out));
    assert!(fails[0].starts_with("FAIL opt/wrong: "), "{}", fails[0]);
    assert!(
        fails[1].starts_with("FAIL opt/unknown: invalid vector: unknown option `bare-lf`"),
        "{}",
        fails[1]
    );
    assert!(
        fails[2].starts_with("FAIL opt/not-list: invalid vector: `options` must be a list"),
        "{}",
        fails[2]
    );
    assert_eq!(last_line(&out), "3 passed, 3 failed");
}
