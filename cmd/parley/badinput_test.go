package main_test

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm/fakellm"
)

// Bad input gets a clear error naming what is wrong, a non-zero exit, and
// nothing half-written.
func TestBadInput(t *testing.T) {
	srv := fakellm.Start(loadScript(t, "perspectives.yaml"), fakellm.WithAPIKey("test-key"))
	defer srv.Close()
	dir := t.TempDir()
	db := filepath.Join(dir, "parley.db")
	good := openaiEnv(srv, db)
	unreadable := filepath.Join(dir, "secret.yaml")
	if err := os.WriteFile(unreadable, []byte("perspectives: []"), 0o000); err != nil {
		t.Fatal(err)
	}
	malformed := filepath.Join(dir, "bad.yaml")
	os.WriteFile(malformed, []byte("perspectives:\n  - name: X\n    colour: blue\n"), 0o644)
	badConfig := filepath.Join(dir, "config.yaml")
	os.WriteFile(badConfig, []byte("model: m\nround_timeout: soon\n"), 0o644)
	withBadConfig := append([]string{"PARLEY_CONFIG=" + badConfig}, good...)
	longLine := filepath.Join(dir, "watchlist.txt")
	os.WriteFile(longLine, []byte("NVDA\n"+strings.Repeat("A", 100_000)+"\n"), 0o644)

	cases := []struct {
		name string
		env  []string
		args []string
		code int
		want string
	}{
		{"no topic", good, []string{"debate"}, 2, "a topic is required"},
		{"empty topic", good, []string{"debate", "   "}, 2, "the topic is empty"},
		{"huge topic", good, []string{"debate", strings.Repeat("why ", 1000)}, 2, "keep it under 2000"},
		{"topic without words", good, []string{"debate", "?!", "--no-checkpoints"}, 2, `the topic "?!" has no words: ask a question`},
		{"topic from standard input", good, []string{"debate", "-", "--no-checkpoints"}, 2, `the topic is "-": parley debate takes the topic as its argument, not from standard input`},
		{"batch topic without words", good, []string{"batch", "--format", "perspectives", "..."}, 1, `the topic "..." has no words`},
		{"issue draft of a council", good, []string{"debate", "Acme Corp", "--format", "council", "--issue-draft"}, 2, `--issue-draft: the council format has no --issue-draft (perspectives takes it)`},
		{"out-dir of a bull vs. bear debate", good, []string{"debate", "NVDA", "--offline", "--out-dir", dir}, 2, `--out-dir: with no --format this debate is bullbear, which has no --out-dir (perspectives takes it)`},
		{"negative limit", good, []string{"limits", "set", "openai", "--tokens-per-minute", "-5"}, 2, `--tokens-per-minute -5: give 0 (no limit) or more`},
		{"batch offline question", good, []string{"batch", "Should we use Redis?", "--offline"}, 1, `(got "Should we use Redis?")`},
		{"two topics", good, []string{"debate", "Redis", "Postgres"}, 2, "put it in quotes"},
		{"unknown flag", good, []string{"debate", "x", "--colour"}, 2, "unknown flag: --colour"},
		{"unknown format", good, []string{"debate", "x", "--format", "duel"}, 2, `unknown format "duel"`},
		{"perspectives out of range", good, []string{"debate", "x", "--perspectives", "9"}, 2, "choose 2 to 4"},
		{"bad max rounds", good, []string{"debate", "x", "--max-rounds", "0"}, 2, "--max-rounds 0"},
		{"negative budget", good, []string{"debate", "x", "--turn-budget", "-1"}, 2, "cannot be negative"},
		{"missing catalog", good, []string{"debate", "x", "--catalog", filepath.Join(dir, "nope.yaml")}, 2, "does not exist"},
		{"malformed catalog", good, []string{"debate", "x", "--catalog", malformed}, 2, `catalog ` + malformed + `: line 3: unknown key "colour" (the keys under perspectives: name, priorities, trade_offs, keywords, tensions)`},
		{"bad duration flag", good, []string{"debate", "x", "--round-timeout", "abc"}, 2, `--round-timeout "abc" is not a duration: give one such as 2m, 90s`},
		{"no event streams", good, []string{"serve", "--addr", "127.0.0.1:0", "--max-streams", "0"}, 2, `--max-streams 0: give how many event streams may be open at once, 1 or more (default 10000)`},
		{"negative event streams", good, []string{"serve", "--addr", "127.0.0.1:0", "--max-streams", "-5"}, 2, `--max-streams -5: give how many event streams may be open at once, 1 or more`},
		{"event streams not a number", good, []string{"serve", "--max-streams", "lots"}, 2, `--max-streams "lots" is not a whole number: give one such as 3`},
		{"no PDF layouts", good, []string{"serve", "--addr", "127.0.0.1:0", "--pdf-renders", "0"}, 2, `--pdf-renders 0: give how many PDFs may be laid out at once, 1 or more`},
		{"PDF layouts not a number", good, []string{"serve", "--pdf-renders", "2.5"}, 2, `--pdf-renders "2.5" is not a whole number`},
		{"flag without its value", good, []string{"debate", "--resume"}, 2, `--resume needs its ID: resume the unfinished debate with this ID`},
		{"shorthand without its value", good, []string{"export", "DEB-1", "-o"}, 2, `-o needs its file: write to file`},
		{"number flag without its value", good, []string{"debate", "x", "--max-rounds"}, 2, `--max-rounds needs its number: cap on rounds`},
		{"bad batch refresh", good, []string{"batch", "NVDA", "--offline", "--refresh", "soon"}, 2, `--refresh "soon" is not a duration`},
		{"config file named but missing", append([]string{"PARLEY_CONFIG=" + filepath.Join(dir, "typo.yaml")}, good...), []string{"debate", "x"}, 2, "PARLEY_CONFIG names " + filepath.Join(dir, "typo.yaml") + ", which does not exist"},
		{"bad duration in the config file", withBadConfig, []string{"debate", "x"}, 2, `config.yaml: line 2: round_timeout: "soon" is not a duration such as 2m or 90s`},
		{"whole number flag out of range", good, []string{"list", "--limit", "99999999999999999999"}, 2, `--limit 99999999999999999999 is too large a number: give a smaller one`},
		{"bad whole number flag", good, []string{"debate", "x", "--max-rounds", "three"}, 2, `--max-rounds "three" is not a whole number`},
		{"unknown provider", good, []string{"debate", "x", "--provider", "gemini"}, 4, `unknown provider; choose one of anthropic, ollama, openai`},
		{"no model", []string{"PARLEY_DB=" + db}, []string{"debate", "Redis or Postgres?"}, 4, "ANTHROPIC_API_KEY"},
		{"bad model-for", good, []string{"debate", "x", "--model", "m", "--model-for", "moderator"}, 2, "write ROLE=MODEL"},
		{"blank model-for", good, []string{"debate", "x", "--model", "m", "--model-for", "moderator="}, 2, "write ROLE=MODEL"},
		{"unknown debate", good, []string{"debate", "--resume", "DEB-00000000"}, 2, "no debate DEB-00000000"},
		{"show unknown", good, []string{"show", "DEB-00000000"}, 2, "no debate DEB-00000000"},
		{"offline question", good, []string{"debate", "Should we use Redis?", "--offline"}, 2, `--offline runs a bull vs. bear debate of a stock: give a ticker such as NVDA (got "Should we use Redis?")`},
		{"bullbear question", good, []string{"debate", "Should we use Redis?", "--format", "bullbear"}, 2, `give its ticker, such as NVDA (got "Should we use Redis?")`},
		{"completion unknown shell", good, []string{"completion", "tcsh"}, 2, `unknown command "tcsh" for "parley completion"`},
		{"help unknown command", good, []string{"help", "nope"}, 2, `no help on "nope": 'parley help' lists the commands`},
		{"export full and summary", good, []string{"export", "DEB-00000000", "--full", "--summary"}, 2, "--full and --summary exclude each other"},
		{"export bad format", good, []string{"export", "DEB-00000000", "--as", "docx"}, 2, `--as "docx": choose md, json or pdf`},
		{"af stray argument", good, []string{"af", "-p", "SE-PR", "-f", "x.af", "extra"}, 2, `parley af takes no arguments, got "extra"`},
		{"af flags after --", good, []string{"af", "--", "-p", "SE-PR"}, 2, `parley af takes no arguments, got "-p SE-PR"`},
		{"db url not postgres", good, []string{"--db", "sqlite://x.db", "list"}, 2, `--db "sqlite://x.db" is a sqlite:// URL: give a SQLite file (such as parley.db) or a postgres:// URL`},
		{"PARLEY_DB url not postgres", []string{"PARLEY_DB=mysql://u:secret@h/db"}, []string{"debate", "NVDA", "--offline"}, 2, `PARLEY_DB "mysql://u:xxxxx@h/db" is a mysql:// URL`},
		{"empty resume", good, []string{"debate", "--resume", ""}, 2, "--resume needs the ID of the debate to resume"},
		{"out-dir is a file", good, []string{"debate", "Redis or Postgres?", "--no-checkpoints", "--out-dir", malformed}, 2, "--out-dir " + malformed + " is a file, not a directory"},
		{"out-dir under a file", good, []string{"debate", "Redis or Postgres?", "--no-checkpoints", "--out-dir", filepath.Join(malformed, "decisions")}, 2, malformed + " is a file, not a directory"},
		{"blank model", good, []string{"debate", "Redis or Postgres?", "--model", ""}, 2, `--model "" is blank: give its value (model name for every role), or leave --model out for the default`},
		{"blank provider", good, []string{"batch", "NVDA", "--provider", " "}, 2, `--provider " " is blank`},
		{"blank model on ask", good, []string{"ask", "DEB-00000000", "--agent", "bull", "--model=", "Why?"}, 2, `--model "" is blank`},
		{"blank export file", good, []string{"export", "DEB-00000000", "-o", ""}, 2, `--output "" is blank: give its value (write to file instead of standard output`},
		{"export under a file", good, []string{"export", "DEB-00000000", "-o", filepath.Join(malformed, "debate.md")}, 2, "-o " + filepath.Join(malformed, "debate.md") + ": " + malformed + " is a file, not a directory"},
		{"question without words", good, []string{"ask", "DEB-00000000", "--agent", "bull", "?!"}, 2, `the question "?!" has no words`},
		{"batch file with a line too long", good, []string{"batch", "--file", longLine, "--offline"}, 2, "--file " + longLine + ": line 2 is longer than 64 KiB: write one ticker or topic (under 2000 characters) a line"},
		{"batch file is a directory", good, []string{"batch", "--file", dir, "--offline"}, 2, "--file " + dir + " is a directory: give the path of a file"},
		{"offline and snapshot", good, []string{"debate", "AAPL", "--offline", "--snapshot"}, 2, "--offline and --snapshot both use the SEC data shipped with Parley: --offline with no model (data-only agents), --snapshot with your model; give one of the two"},
		{"batch offline and snapshot", good, []string{"batch", "AAPL", "NVDA", "--offline", "--snapshot"}, 2, "--offline and --snapshot both use the SEC data shipped with Parley"},
		{"list bad status", good, []string{"list", "--status", "sleeping"}, 2, "choose queued, running, checkpoint, paused, interrupted, completed or failed"},
	}
	if os.Getuid() != 0 { // root reads any file
		cases = append(cases, struct {
			name string
			env  []string
			args []string
			code int
			want string
		}{"unreadable catalog", good, []string{"debate", "x", "--catalog", unreadable}, 2, "permission denied"})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := parley(t, dir, c.env, "", c.args...)
			if r.code != c.code {
				t.Errorf("exit %d, want %d\nstderr: %s", r.code, c.code, r.stderr)
			}
			if !strings.Contains(r.stderr, c.want) {
				t.Errorf("stderr lacks %q:\n%s", c.want, r.stderr)
			}
		})
	}
	// Nor a directory named after a URL's scheme.
	for _, name := range []string{"sqlite:", "mysql:"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("a database URL made a directory %q", name)
		}
	}
	// None of these created a debate.
	r := parley(t, dir, good, "", "list", "--json")
	if strings.TrimSpace(r.stdout) != "[]" {
		t.Errorf("bad input left debates behind: %s", r.stdout)
	}
}

// A provider that cannot be reached, or that refuses the key, pauses the
// debate with a clear message: it is saved, resumable, and no document is
// written.
func TestProviderFailures(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String() + "/v1"
	ln.Close()
	srv := fakellm.Start(loadScript(t, "perspectives.yaml"), fakellm.WithAPIKey("right-key"))
	defer srv.Close()

	cases := []struct {
		name string
		env  []string
		code int
		want []string
	}{
		{"unreachable", []string{"OPENAI_BASE_URL=" + closed, "OPENAI_API_KEY=k"}, 3, []string{"cannot reach", "parley debate --resume DEB-"}},
		{"invalid key", []string{"OPENAI_BASE_URL=" + srv.OpenAIURL(), "OPENAI_API_KEY=wrong-key"}, 4, []string{"rejected the API key", "parley debate --resume DEB-"}},
		{"no key", []string{"OPENAI_BASE_URL=" + srv.OpenAIURL()}, 4, []string{"paused: no API key is set for the provider", "set OPENAI_API_KEY", "set it, then resume with: parley debate --resume DEB-"}},
		{"invalid anthropic key", []string{"ANTHROPIC_BASE_URL=" + srv.AnthropicURL(), "ANTHROPIC_API_KEY=wrong-key"}, 4, []string{"rejected the API key"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			env := append(c.env, "PARLEY_DB="+filepath.Join(dir, "p.db"))
			r := parley(t, dir, env, "", "debate", "Should we use Redis or PostgreSQL for caching?", "--no-checkpoints", "--model", "m")
			if r.code != c.code {
				t.Errorf("exit %d, want %d\nstderr: %s", r.code, c.code, r.stderr)
			}
			for _, w := range c.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
				}
			}
			list := parley(t, dir, env, "", "list", "--json")
			var sums []struct{ Status string }
			if err := json.Unmarshal([]byte(list.stdout), &sums); err != nil || len(sums) != 1 || sums[0].Status != "paused" {
				t.Errorf("want one paused debate, got %s", list.stdout)
			}
			if _, err := os.Stat(filepath.Join(dir, "docs")); !os.IsNotExist(err) {
				t.Errorf("a document was written for a failed debate")
			}
		})
	}
}

// TestWrongBaseURL: a base URL without the /v1 an OpenAI-compatible server
// serves its API under pauses the debate on the server's 404 with what to
// check (the variable, the /v1), not a generic "check --model". Correcting
// the variable is not enough on its own (a resume keeps the recorded
// server), and the resume says so; naming the model again moves the debate
// to the corrected address, said and recorded, and it completes.
func TestWrongBaseURL(t *testing.T) {
	srv := fakellm.Start(loadScript(t, "perspectives.yaml"), fakellm.WithAPIKey("test-key"))
	defer srv.Close()
	dir := t.TempDir()
	db := "PARLEY_DB=" + filepath.Join(dir, "p.db")
	wrong := []string{db, "OPENAI_BASE_URL=" + srv.URL, "OPENAI_API_KEY=test-key"}
	r := parley(t, dir, wrong, "", "debate", "Should we use Redis or PostgreSQL for caching?", "--no-checkpoints", "--model", "test-model")
	if r.code != 4 || !strings.Contains(r.stderr, srv.URL+" has no openai API at this path: check OPENAI_BASE_URL") ||
		strings.Contains(r.stderr, "check --model") {
		t.Fatalf("debate at the server's root: exit %d, want 4 naming OPENAI_BASE_URL; stderr:\n%s", r.code, r.stderr)
	}
	id := regexp.MustCompile(`DEB-[0-9a-f]+`).FindString(r.stderr)
	right := []string{db, "OPENAI_BASE_URL=" + srv.OpenAIURL(), "OPENAI_API_KEY=test-key"}
	r = parley(t, dir, right, "", "debate", "--resume", id, "--no-checkpoints")
	if r.code != 4 || !strings.Contains(r.stderr, "OPENAI_BASE_URL names "+srv.OpenAIURL()+", but this debate's openai models answer at "+srv.URL) {
		t.Fatalf("plain resume after the fix: exit %d, want 4 and a notice of the recorded address; stderr:\n%s", r.code, r.stderr)
	}
	r = parley(t, dir, right, "", "debate", "--resume", id, "--no-checkpoints", "--model", "test-model")
	if r.code != 0 || !strings.Contains(r.stderr, "every role now answers with openai/test-model at "+srv.OpenAIURL()+", was openai/test-model at "+srv.URL) {
		t.Fatalf("resume naming the model: exit %d, want 0 and the move said; stderr:\n%s", r.code, r.stderr)
	}
}

// TestAFBounded: `parley af --timeout` gives up on a hard instance with a
// clear message, exit 1 and nothing on standard output; the ICCMA "-fo"
// flag is understood.
func TestAFBounded(t *testing.T) {
	dir := t.TempDir()
	hard, err := filepath.Abs(filepath.Join("..", "..", "internal", "argue", "testdata", "iccma", "iccma2023", "st_890_86_9_572.af"))
	if err != nil {
		t.Fatal(err)
	}
	r := parley(t, dir, nil, "", "af", "-p", "SE-PR", "-f", hard, "-fo", "i23", "--timeout", "500ms")
	if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, "no answer within 500ms (--timeout)") {
		t.Errorf("af --timeout on a hard instance: exit %d, stdout %q, stderr:\n%s", r.code, r.stdout, r.stderr)
	}
	r = parley(t, dir, nil, "p af 5\n1 2\n", "af", "-p", "SE-GR", "-f", "-", "-fo", "i23")
	if r.code != 0 || strings.TrimSpace(r.stdout) != "w 1 3 4 5" {
		t.Errorf("af -fo i23 from standard input: exit %d, %q %s", r.code, r.stdout, r.stderr)
	}
}

// TestBadInputStorePath: a --db or PARLEY_DB that cannot hold the database
// is bad input, worded alike by every command that opens the store: the
// path, why, and how to choose another; not SQLite's "unable to open
// database file (14)".
func TestBadInputStorePath(t *testing.T) {
	dir := t.TempDir()
	notDB := filepath.Join(dir, "notes.db")
	if err := os.WriteFile(notDB, []byte("not a database\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	places := []struct{ path, why string }{
		{dir, "it is a directory, not a database file"},
		{notDB, "it is not a database file"},
	}
	if fi, err := os.Stat("/proc/self"); err == nil && fi.IsDir() { // a filesystem nobody creates files in
		places = append(places, struct{ path, why string }{"/proc/parley.db", "its directory /proc is read-only"})
	}
	commands := [][]string{
		{"debate", "NVDA", "--offline"},
		{"batch", "NVDA", "--offline"},
		{"list"},
		{"show", "DEB-00000000"},
		{"export", "DEB-00000000"},
		{"delete", "DEB-00000000", "--yes"},
	}
	for _, p := range places {
		for _, args := range commands {
			if p.path == "/proc/parley.db" && args[0] != "debate" && args[0] != "batch" {
				continue // nothing to read there: "no Parley database at /proc/parley.db"
			}
			for _, how := range []string{"--db", "PARLEY_DB"} {
				var env []string
				a := append([]string(nil), args...)
				if how == "--db" {
					a = append(a, "--db", p.path)
				} else {
					env = []string{"PARLEY_DB=" + p.path}
				}
				r := parley(t, dir, env, "", a...)
				want := "cannot use " + p.path + " as the Parley database: " + p.why
				if r.code != 2 || !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, "choose another location with --db or PARLEY_DB") {
					t.Errorf("parley %v (%s): exit %d, want 2 saying %q and how to choose another:\n%s", a, how, r.code, want, r.stderr)
				}
			}
		}
	}
}
