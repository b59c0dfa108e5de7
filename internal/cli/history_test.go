package cli

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/iostreams"
	"github.com/parleyhq/parley/internal/llm"
)

// TestListOrderAndColumnAgree: 'parley list' lists the newest debates
// first, by when each was created, and its time column shows that time:
// a debate resumed lately keeps its place and its date, rather than
// read as out of order.
func TestListOrderAndColumnAgree(t *testing.T) {
	ctx := context.Background()
	f := testFactory(t, "", false)
	now := time.Now().Truncate(time.Minute)
	storeEvents(ctx, t, f, "DEB-0000old0", now.Add(-48*time.Hour), debate.Created{Format: "bullbear", Topic: "AAPL"})
	storeEvents(ctx, t, f, "DEB-0000new0", now.Add(-24*time.Hour), debate.Created{Format: "bullbear", Topic: "NVDA"})
	// The older debate went on today.
	storeEvents(ctx, t, f, "DEB-0000old0", now, debate.PhaseChanged{Phase: "opening", Label: "Opening"})
	out, _, err := runParley(ctx, f, "list")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[1], "DEB-0000new0") || !strings.HasPrefix(lines[2], "DEB-0000old0") {
		t.Fatalf("parley list, want the newer debate first:\n%s", out)
	}
	if !strings.Contains(lines[0], "CREATED") || strings.Contains(lines[0], "UPDATED") {
		t.Errorf("parley list: header %q, want a CREATED column, the order's", lines[0])
	}
	if created := now.Add(-48 * time.Hour).Local().Format("2006-01-02 15:04"); !strings.Contains(lines[2], created) {
		t.Errorf("parley list: the older debate's row %q lacks its creation time %s", lines[2], created)
	}
}

// TestShowSaysWhyItPaused: 'parley show' of a debate paused by a failure
// says what failed, control characters made visible, before the resume
// it offers: the status alone ("paused (error)") does not say what to fix.
func TestShowSaysWhyItPaused(t *testing.T) {
	ctx := context.Background()
	f := testFactory(t, "", false)
	out := showPaused(ctx, t, f, "turn analysis: openai: auth (HTTP 401): invalid API key: check OPENAI_API_KEY\x1b[2J")
	want := "Paused because: turn analysis: openai: auth (HTTP 401): invalid API key: check OPENAI_API_KEY␛[2J\nResume with: parley debate --resume DEB-00000ab1\n"
	if !strings.Contains(out, want) {
		t.Errorf("parley show lacks %q:\n%s", want, out)
	}
}

// TestNamesInAnyCase: a format or a status typed in capitals is the one
// named, as a provider, a framework or an export format is, rather than
// refused by an error that lists it.
func TestNamesInAnyCase(t *testing.T) {
	ctx := context.Background()
	f := testFactory(t, "", false)
	req, err := f.parseDebate(ctx, []string{"Kafka or RabbitMQ?", "--format", "Council"})
	if err != nil || req.Start.Format != "council" {
		t.Errorf("/debate --format Council: %+v, %v", req, err)
	}
	storeEvents(ctx, t, f, "DEB-00000001", time.Now(), debate.Created{Format: "bullbear", Topic: "AAPL"})
	_, errOut, err := runParley(ctx, f, "list", "--status", "PAUSED", "--format", "Perspectives")
	if err != nil {
		t.Fatalf("list --status PAUSED --format Perspectives: %v", err)
	}
	if !strings.Contains(errOut, "No debates match --format perspectives --status paused") {
		t.Errorf("list --status PAUSED --format Perspectives: %q", errOut)
	}
}

// TestListSaysItIsCut: 'parley list' at its limit says that more debates
// match and how to see them; --all lists every one and says nothing;
// --all with a --limit is refused.
func TestListSaysItIsCut(t *testing.T) {
	ctx := context.Background()
	f := testFactory(t, "", false)
	now := time.Now()
	for i := range 5 {
		storeEvents(ctx, t, f, fmt.Sprintf("DEB-0000000%d", i), now.Add(time.Duration(i)*time.Minute), debate.Created{Format: "bullbear", Topic: "AAPL"})
	}
	run := func(args ...string) (rows int, stderr string, err error) {
		out, stderr, err := runParley(ctx, f, append([]string{"list"}, args...)...)
		return strings.Count(strings.TrimSpace(out), "\n"), stderr, err
	}
	if rows, stderr, err := run("--limit", "3"); err != nil || rows != 3 || !strings.Contains(stderr, "These are the 3 newest; more match: --limit N lists more, --all every one.") {
		t.Errorf("list --limit 3 of 5: %d rows, stderr %q, %v; want 3 and a word that more match", rows, stderr, err)
	}
	if rows, stderr, err := run("--limit", "1"); err != nil || rows != 1 || !strings.Contains(stderr, "This is the newest; more match") {
		t.Errorf("list --limit 1 of 5: %d rows, stderr %q, %v; want 1 and a word that more match, in the singular", rows, stderr, err)
	}
	if rows, stderr, err := run("--limit", "5"); err != nil || rows != 5 || strings.Contains(stderr, "more match") {
		t.Errorf("list --limit 5 of 5: %d rows, stderr %q, %v; want 5 and no word of more", rows, stderr, err)
	}
	if rows, stderr, err := run("--all"); err != nil || rows != 5 || strings.Contains(stderr, "more match") {
		t.Errorf("list --all: %d rows, stderr %q, %v; want all 5", rows, stderr, err)
	}
	if _, _, err := run("--all", "--limit", "2"); err == nil || !strings.Contains(err.Error(), "give one of them") {
		t.Errorf("list --all --limit 2: %v, want a usage error", err)
	}
	// On a terminal of 30 columns the word folds, as the lines around the
	// live view do: the terminal folded it to column 0, mid-word.
	f.IO.SetTerminal(true, false, false)
	f.IO.SetWidth(30)
	if _, stderr, err := run("--limit", "3"); err != nil {
		t.Fatal(err)
	} else {
		// Each note folded, its lines after the first indented (the
		// split takes each note's first character).
		for _, note := range regexp.MustCompile(`(?m)^\S`).Split(stderr, -1)[1:] {
			checkFolded(t, "x"+note, 30)
		}
		if !strings.Contains(stderr, "These are the 3 newest; more\n  match") {
			t.Errorf("the word that more match is not folded:\n%s", stderr)
		}
	}
}

// TestListCostNote: the note under 'parley list' explains the cost cells
// it shows. A priced debate ($0.0500) beside one whose model has no price
// (unknown) has no cell marked ≥: the note said "Costs marked ≥ …", from
// the sum of every row, which the list does not show.
func TestListCostNote(t *testing.T) {
	ctx := context.Background()
	f := testFactory(t, "", false)
	now := time.Now()
	for _, d := range []struct {
		id, model string
		cost      float64
	}{{"DEB-0000aaa0", "anthropic/claude-sonnet-4-5", 0.05}, {"DEB-0000bbb0", "openai/my-model", 0}} {
		turn := debate.TurnRef{ID: "analysis", Agent: "moderator", Role: "moderator"}
		storeEvents(ctx, t, f, d.id, now,
			debate.Created{Format: "perspectives", Topic: "Redis?"},
			debate.TurnStarted{Turn: turn, Attempt: 1},
			debate.TurnCompleted{Turn: turn, Text: "x", Usage: llm.Usage{InputTokens: 100, OutputTokens: 10}, CostUSD: d.cost, Priced: d.cost > 0, Model: d.model})
	}
	out, errOut, err := runParley(ctx, f, "list")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "$0.0500") || !strings.Contains(out, "unknown") || strings.Contains(out, "≥") {
		t.Fatalf("want a priced row and an unknown one, none marked ≥:\n%s", out)
	}
	if strings.Contains(errOut, "≥") || !strings.Contains(errOut, "openai/my-model") {
		t.Errorf("the note speaks of cells marked ≥, or does not name the model without a price:\n%s", errOut)
	}
}

// TestListAnotherProgramsDatabase: 'parley list --db' naming a SQLite file
// that is not Parley's (another program's, or empty) is bad input saying
// no Parley database is there and how to choose one, as for a PostgreSQL
// schema without Parley's tables; it ended with exit 1 and no advice.
func TestListAnotherProgramsDatabase(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "other.db")
	db, err := sql.Open("sqlite", other)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE notes (body TEXT)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	empty := filepath.Join(dir, "empty.db")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{other, empty} {
		ios, _, _, errOut := iostreams.Test()
		if code := Main(context.Background(), []string{"list", "--db", path}, ios); code != ExitUsage || !strings.Contains(errOut.String(), "no Parley database at "+path) || !strings.Contains(errOut.String(), "--db") {
			t.Errorf("list --db %s: exit %d, want %d and no Parley database there:\n%s", path, code, ExitUsage, errOut)
		}
	}
	// A debate does not make the other program's file a Parley database.
	ios, _, _, errOut := iostreams.Test()
	if code := Main(context.Background(), []string{"debate", "NVDA", "--offline", "--db", other}, ios); code != ExitUsage ||
		!strings.Contains(errOut.String(), "another program's database (its tables: notes)") || !strings.Contains(errOut.String(), "--db") {
		t.Errorf("debate --db %s: exit %d, want %d and the file refused:\n%s", other, code, ExitUsage, errOut)
	}
}

// TestShowFoldsToTheTerminal: on a terminal of 30 columns the lines 'parley
// show' prints above the document (the status, why it paused, how to
// resume) fold as the document does, the command whole; folded by the
// terminal, they went on at column 0, cut mid-word.
func TestShowFoldsToTheTerminal(t *testing.T) {
	ctx := context.Background()
	f := testFactory(t, "", false)
	f.IO.SetTerminal(true, false, false)
	f.IO.SetWidth(30)
	out := showPaused(ctx, t, f, "turn analysis: openai: auth (HTTP 401): invalid API key: check OPENAI_API_KEY")
	head, _, _ := strings.Cut(out, "\n\n")
	const cmd = "parley debate --resume DEB-00000ab1"
	if !strings.Contains(head, cmd) {
		t.Fatalf("the resume command is broken or missing:\n%s", head)
	}
	for _, line := range strings.Split(strings.Replace(head, cmd, "x", 1), "\n") {
		if len([]rune(line)) >= 30 {
			t.Errorf("line of %d columns on a terminal of 30: %q\n%s", len([]rune(line)), line, head)
		}
	}
}

// TestExportNameTooLong: 'parley export -o' naming a file longer than the
// file system takes is bad input saying so; the system's "file name too
// long", on a temporary name, ended it with exit 1.
func TestExportNameTooLong(t *testing.T) {
	ctx := context.Background()
	f := testFactory(t, "", false)
	storeEvents(ctx, t, f, "DEB-00000ab1", time.Now(), debate.Created{Format: "perspectives", Topic: "Redis?"})
	out := filepath.Join(t.TempDir(), strings.Repeat("a", 300)+".md")
	_, _, err := runParley(ctx, f, "export", "DEB-00000ab1", "-o", out)
	if ExitCode(err) != ExitUsage || !strings.Contains(fmt.Sprint(err), "the name is longer than the file system takes") {
		t.Errorf("export -o a name of 303 bytes: %v (exit %d), want bad input saying the name is too long", err, ExitCode(err))
	}
}

// showPaused stores a perspectives debate, DEB-00000ab1, paused by an
// error of the detail given, and returns what 'parley show' prints of it.
func showPaused(ctx context.Context, t *testing.T, f *Factory, detail string) string {
	t.Helper()
	storeEvents(ctx, t, f, "DEB-00000ab1", time.Now(),
		debate.Created{Format: "perspectives", Topic: "Redis or Postgres?"},
		debate.Paused{Reason: debate.PauseError, Detail: detail})
	out, _, err := runParley(ctx, f, "show", "DEB-00000ab1")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// storeEvents appends events of debate id to the test factory's database,
// the first at the time given and each next a second later.
func storeEvents(ctx context.Context, t *testing.T, f *Factory, id string, at time.Time, payloads ...debate.Payload) {
	t.Helper()
	st, err := f.OpenStore(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for i, p := range payloads {
		e, err := debate.NewEvent(id, at.Add(time.Duration(i)*time.Second), p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.Append(ctx, id, e); err != nil {
			t.Fatal(err)
		}
	}
}

// runParley runs parley's command line with args on the test factory's
// database and returns what it wrote to standard output and standard
// error this time.
func runParley(ctx context.Context, f *Factory, args ...string) (stdout, stderr string, err error) {
	out, errOut := f.IO.Out.(*bytes.Buffer), f.IO.ErrOut.(*bytes.Buffer)
	out.Reset()
	errOut.Reset()
	db := f.DBPath // the root command's --db flag takes its place
	root := NewRootCmd(f)
	root.SetArgs(append(args, "--db", db))
	err = root.ExecuteContext(ctx)
	return out.String(), errOut.String(), err
}
