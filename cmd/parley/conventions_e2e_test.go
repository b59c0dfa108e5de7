package main_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCLIConventions: version, id prefixes, -o inferring the export format,
// --turn-budget unlimited, delete with confirmation, list with cost (unknown
// for a model without a price), an unknown --model-for role refused, shell
// completion of values and ids.
func TestCLIConventions(t *testing.T) {
	_, dir, env := fakeOpenAI(t, loadScript(t, "perspectives.yaml"))
	for _, args := range [][]string{{"--version"}, {"version"}} {
		if r := mustParley(t, dir, env, "", args...); !strings.HasPrefix(r.stdout, "parley ") || !strings.Contains(r.stdout, "revision") {
			t.Errorf("%v: %q", args, r.stdout)
		}
	}
	mustParley(t, dir, env, "", "debate", redisTopic, "--no-checkpoints", "--model", "test-model", "--turn-budget", "unlimited")
	mustParley(t, dir, env, "", "debate", redisTopic, "--no-checkpoints", "--model", "test-model")
	l := mustParley(t, dir, env, "", "list")
	// The fake server's model has no known price: its cost is unknown, not
	// a $0.0000 that would read as a free run.
	if !strings.Contains(l.stdout, "COST") || strings.Count(l.stdout, " unknown ") != 2 || strings.Contains(l.stdout, "$") {
		t.Errorf("list does not show the two debates' cost as unknown:\n%s", l.stdout)
	}
	id := strings.Fields(strings.Split(l.stdout, "\n")[1])[0]
	prefix := strings.TrimPrefix(id, "DEB-")[:5]
	if r := mustParley(t, dir, env, "", "show", prefix, "--summary"); !strings.Contains(r.stdout, id) {
		t.Errorf("show by the prefix %s does not show %s:\n%s", prefix, id, r.stdout)
	}
	if r := parley(t, dir, env, "", "show", "DEB-"); r.code != 2 || !strings.Contains(r.stderr, "matches 2 debates") {
		t.Errorf("an ambiguous prefix: exit %d\n%s", r.code, r.stderr)
	}
	pdf := filepath.Join(dir, "out.pdf")
	mustParley(t, dir, env, "", "export", prefix, "-o", pdf)
	if b, err := os.ReadFile(pdf); err != nil || !strings.HasPrefix(string(b), "%PDF") {
		t.Errorf("-o out.pdf did not write a PDF (%v)", err)
	}
	if r := parley(t, dir, env, "", "export", prefix, "--as", "md", "-o", pdf); r.code != 2 {
		t.Errorf("--as md -o x.pdf: exit %d, want 2\n%s", r.code, r.stderr)
	}
	// The format's name in any case, as the extension's is read.
	upper := filepath.Join(dir, "OUT.PDF")
	if r := parley(t, dir, env, "", "export", prefix, "--as", "PDF", "-o", upper); r.code != 0 {
		t.Errorf("--as PDF -o OUT.PDF: exit %d\n%s", r.code, r.stderr)
	}
	// A directory to -o gets the debate's file in it, its format from --as
	// (not from the directory's name), instead of a rename over it.
	into := filepath.Join(dir, "exports.md")
	if err := os.Mkdir(into, 0o755); err != nil {
		t.Fatal(err)
	}
	if r := parley(t, dir, env, "", "export", prefix, "--as", "json", "-o", into); r.code != 0 || !strings.Contains(r.stderr, "Wrote "+filepath.Join(into, id+".json")) {
		t.Errorf("--as json -o DIR: exit %d\n%s", r.code, r.stderr)
	}
	if b, err := os.ReadFile(filepath.Join(into, id+".json")); err != nil || !strings.HasPrefix(string(b), "{") {
		t.Errorf("-o DIR did not write %s.json in it (%v)", id, err)
	}
	// A directory that does not exist yet, named as one ("new/"), is
	// made and gets the file in it; it was made, then refused as a file
	// that exists.
	fresh := filepath.Join(dir, "new", "exports") + string(filepath.Separator)
	if r := parley(t, dir, env, "", "export", prefix, "-o", fresh); r.code != 0 || !strings.Contains(r.stderr, "Wrote "+filepath.Join(fresh, id+".md")) {
		t.Errorf("-o NEWDIR/: exit %d\n%s", r.code, r.stderr)
	}
	if b, err := os.ReadFile(filepath.Join(fresh, id+".md")); err != nil || !strings.HasPrefix(string(b), "# ") {
		t.Errorf("-o NEWDIR/ did not write %s.md in it (%v)", id, err)
	}
	if r := parley(t, dir, env, "", "debate", "Is Bitcoin digital gold?", "--format", "crux", "--agents", "saylor,hayes", "--model-for", "debater=x"); r.code != 2 || !strings.Contains(r.stderr, "roles are persona, moderator") {
		t.Errorf("an unknown role: exit %d\n%s", r.code, r.stderr)
	}
	if r := parley(t, dir, env, "", "delete", id); r.code != 2 || !strings.Contains(r.stderr, "--yes") {
		t.Errorf("delete without a terminal or --yes: exit %d\n%s", r.code, r.stderr)
	}
	mustParley(t, dir, env, "", "delete", id, "--yes")
	if l := mustParley(t, dir, env, "", "list"); strings.Contains(l.stdout, id) {
		t.Errorf("the deleted debate is still listed:\n%s", l.stdout)
	}
	if r := mustParley(t, dir, env, "", "completion", "bash"); !strings.Contains(r.stdout, "__parley") {
		t.Error("no bash completion script")
	}
	if r := mustParley(t, dir, env, "", "__complete", "export", ""); !strings.Contains(r.stdout, "DEB-") {
		t.Errorf("ids are not completed:\n%s", r.stdout)
	}
	if r := mustParley(t, dir, env, "", "__complete", "debate", "--format", ""); !strings.Contains(r.stdout, "perspectives") {
		t.Errorf("formats are not completed:\n%s", r.stdout)
	}
	// Worked out when asked (not at start-up): the personas from their YAML.
	if r := mustParley(t, dir, env, "", "__complete", "debate", "--agents", ""); !strings.Contains(r.stdout, "taleb") || !strings.Contains(r.stdout, "valuation") {
		t.Errorf("personas and analysts are not completed:\n%s", r.stdout)
	}
}

// TestConfigFile: the config file gives defaults (a model, one round, the
// spec's custom perspectives), flags and the environment override it,
// `parley config` says where each setting comes from, and an unknown key is
// an error naming it.
func TestConfigFile(t *testing.T) {
	srv, dir, env := fakeOpenAI(t, loadScript(t, "perspectives.yaml"))
	cfg := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte("provider: openai\nmodel: from-config\nmax_rounds: 1\ndebate:\n  custom_perspectives:\n    - name: Compliance First\n      priorities: [audit trails, data residency]\n      trade_offs: slower delivery\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env = append(env, "PARLEY_CONFIG="+cfg)
	r := mustParley(t, dir, env, "", "config")
	for _, want := range []string{"model", "from-config", "max_rounds", "config file " + cfg, "Compliance First"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("parley config lacks %q:\n%s", want, r.stdout)
		}
	}
	if r := mustParley(t, dir, append(env, "PARLEY_MODEL=from-env"), "", "config"); !strings.Contains(r.stdout, "environment PARLEY_MODEL") {
		t.Errorf("the environment does not rank above the file:\n%s", r.stdout)
	}
	mustParley(t, dir, env, "", "debate", redisTopic, "--no-checkpoints")
	for _, req := range srv.Requests() {
		if req.Parsed.Model != "from-config" {
			t.Fatalf("a request went to %q, want the config file's model", req.Parsed.Model)
		}
	}
	mustParley(t, dir, env, "", "debate", redisTopic, "--no-checkpoints", "--model", "from-flag")
	if last := srv.Requests()[len(srv.Requests())-1]; last.Parsed.Model != "from-flag" {
		t.Errorf("the flag does not override the file: %s", last.Parsed.Model)
	}
	if err := os.WriteFile(cfg, []byte("max_round: 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if r := parley(t, dir, env, "", "debate", redisTopic); r.code != 2 || !strings.Contains(r.stderr, `line 1: unknown key "max_round" (the keys at the top level: provider,`) {
		t.Errorf("an unknown key: exit %d\n%s", r.code, r.stderr)
	}
}

// TestDecisionsAtRepositoryRoot: run from a subdirectory of a git
// repository, the decision document goes to docs/decisions at its root (and
// the command says where); --out-dir chooses another place.
func TestDecisionsAtRepositoryRoot(t *testing.T) {
	_, dir, env := fakeOpenAI(t, loadScript(t, "perspectives.yaml"))
	repo := filepath.Join(dir, "repo")
	sub := filepath.Join(repo, "services", "api")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	r := mustParley(t, sub, env, "", "debate", redisTopic, "--no-checkpoints", "--model", "test-model")
	docs, _ := filepath.Glob(filepath.Join(repo, "docs", "decisions", "*.md"))
	if len(docs) != 1 || !strings.Contains(r.stderr, "Decision document written to "+filepath.Join(repo, "docs", "decisions")) {
		t.Errorf("decision documents at the repository root: %v\n%s", docs, r.stderr)
	}
	out := filepath.Join(dir, "elsewhere")
	mustParley(t, sub, env, "", "debate", redisTopic, "--no-checkpoints", "--model", "test-model", "--out-dir", out)
	if docs, _ := filepath.Glob(filepath.Join(out, "*.md")); len(docs) != 1 {
		t.Errorf("--out-dir: %v", docs)
	}
}

// TestOutputThatCannotBeWritten: a command whose output cannot be written
// (standard output on a full disk) fails with exit 1 saying so. show,
// version and the solver's lists exited 0 with nothing written, and the
// solver's answer exited 2, as for a bad framework file.
func TestOutputThatCannotBeWritten(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no /dev/full here: %v", err)
	}
	defer full.Close()
	dir := t.TempDir()
	env := []string{"PARLEY_DB=" + filepath.Join(dir, "parley.db")}
	mustParley(t, dir, env, "", "debate", "NVDA", "--offline")
	id := between(parley(t, dir, env, "", "list", "--json").stdout, `"id": "`, `"`)
	if err := os.WriteFile(filepath.Join(dir, "f.af"), []byte("p af 2\n1 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"show", id}, {"version"}, {"af", "--problems"}, {"af", "--formats"}, {"af"}, {"af", "-p", "SE-PR", "-f", "f.af"}} {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		cmd := command(ctx, t, dir, env, args...)
		var errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = full, &errOut
		err := cmd.Run()
		cancel()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(errOut.String(), "no space left on device") {
			t.Errorf("parley %v to a full disk: %v (want exit 1)\n%s", args, err, errOut.String())
		}
	}
}

// TestDebateOutputThatCannotBeWritten: a debate whose view cannot be
// written (standard output on a full disk) pauses, exit 1, saying so and
// how to go on; it ran to its end, paid for, with nothing shown, and
// exited 0.
func TestDebateOutputThatCannotBeWritten(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no /dev/full here: %v", err)
	}
	defer full.Close()
	dir := t.TempDir()
	env := []string{"PARLEY_DB=" + filepath.Join(dir, "parley.db")}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := command(ctx, t, dir, env, "debate", "NVDA", "--offline")
	var errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = full, &errOut
	err = cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Errorf("parley debate to a full disk: %v (want exit 1)\n%s", err, errOut.String())
	}
	for _, want := range []string{"standard output could not be written (write /dev/stdout: no space left on device)", "resume with: parley debate --resume DEB-"} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("standard error lacks %q:\n%s", want, errOut.String())
		}
	}
	if out := parley(t, dir, env, "", "list").stdout; !strings.Contains(out, "paused") && !strings.Contains(out, "interrupted") {
		t.Errorf("the debate is not kept to resume:\n%s", out)
	}
}
