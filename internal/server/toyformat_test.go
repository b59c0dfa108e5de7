package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/setup"
	"github.com/parleyhq/parley/internal/store/memstore"
	"github.com/parleyhq/parley/internal/tool"
)

// toyFormat is a format only this test registers, with options of its own:
// what a new format is, a package and a line in the registry, with nothing
// of the server changed for it.
type toyFormat struct{}

type toyOptions struct {
	Level int    `json:"level"`
	Loud  bool   `json:"loud,omitempty"`
	Color string `json:"color,omitempty"`
}

func (toyFormat) Name() string { return "toy" }

func (toyFormat) Options() []setup.Option {
	return []setup.Option{
		{Name: "toy-level", Kind: setup.Int, Usage: "how hard the toy plays", Default: 3, Min: 1, Max: 9},
		{Name: "toy-loud", Kind: setup.Bool, Usage: "play loudly"},
		{Name: "toy-box", Kind: setup.String, File: true, Usage: "a `file` of toys"},
		{Name: "toy-color", Kind: setup.String, Usage: "the toy's colour", Label: "Colour",
			Choices: func() []string { return []string{"red", "blue"} }},
	}
}

func (toyFormat) Setup(_ context.Context, _ setup.Env, req *setup.Request) (json.RawMessage, error) {
	n := req.Int("toy-level")
	if n < 1 || n > 9 {
		return nil, setup.Inputf("--toy-level %d: choose 1 to 9", n)
	}
	return json.Marshal(toyOptions{Level: n, Loud: req.Bool("toy-loud"), Color: req.String("toy-color")})
}

func (toyFormat) Prepare(context.Context, setup.Env, *setup.Run) (*tool.Registry, error) {
	return nil, nil
}

// RunsOffline: the toy needs no model.
func (toyFormat) RunsOffline() bool { return true }

func (toyFormat) Protocol(_ string, options json.RawMessage) (debate.Protocol, error) {
	o, err := debate.DecodeOptions[toyOptions]("toy", options)
	return toyProtocol{o}, err
}

func (toyFormat) Render(*debate.State, debate.RenderOptions) (string, error) { return "# Toy\n", nil }

type toyProtocol struct{ o toyOptions }

func (p toyProtocol) Next(*debate.State) (debate.Step, error) {
	return debate.Step{Done: true, Verdict: p.o.Level, Reason: "a toy plays one move"}, nil
}

func (toyProtocol) Parse(*debate.State, debate.TurnSpec, string) (any, error) { return nil, nil }

// TestNewFormatsOptionIsAField: a format registered with options of its own
// has each as a field of POST /api/debates, named from the option
// (toy-level is "toy_level") and decoded by its kind, which reaches the
// format's Setup; a value of another type is a 400 naming the field, an
// option naming a file is no field, and an option the chosen format does
// not declare is refused as every format's is.
func TestNewFormatsOptionIsAField(t *testing.T) {
	ts := toyServer(t)
	for body, want := range map[string]toyOptions{
		`{"format":"toy","topic":"Is a toy a game?","toy_level":7,"toy_loud":true}`: {Level: 7, Loud: true},
		`{"format":"toy","topic":"Is a toy a game?"}`:                               {Level: 3},
	} {
		id := ts.create(t, body)
		ts.waitFor(t, id, "completed", func(v DebateView) bool { return v.Status == "completed" })
		st, _, err := ts.app.Load(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		var got toyOptions
		if err := json.Unmarshal(st.Options, &got); err != nil || got != want {
			t.Errorf("%s: created with %+v (%v), want %+v", body, got, err, want)
		}
	}
	for body, says := range map[string]string{
		`{"format":"toy","topic":"x","toy_level":"high"}`:          `\"toy_level\" is a string: give a whole number`,
		`{"format":"toy","topic":"x","toy_level":12}`:              `\"toy_level\" 12: choose 1 to 9`,
		`{"format":"toy","topic":"x","toy_box":"/etc/passwd"}`:     `unknown field \"toy_box\": the fields are format, topic, perspectives`,
		`{"format":"toy","topic":"x","agents":["a"]}`:              `\"agents\": the toy format has no \"agents\" (council and crux take it)`,
		`{"topic":"Is a toy a game?","toy_level":2}`:               `\"toy_level\": with no \"format\" this debate is perspectives, which has no \"toy_level\" (toy takes it)`,
		`{"format":"council","topic":"Acme Corp","rounds":3}`:      `\"rounds\": the council format has no \"rounds\" (formal takes it)`,
		`{"topic":"Should we use Redis?","agents":["saylor","x"]}`: `\"agents\": with no \"format\" this debate is perspectives, which has no \"agents\" (council and crux take it)`,
		`{"format":"crux","topic":"x","personas":"personas.yaml"}`: `unknown field \"personas\"`,
	} {
		resp, out := ts.do(t, "POST", "/api/debates", body)
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(out, says) {
			t.Errorf("%s: %d %s; want 400 saying %s", body, resp.StatusCode, out, says)
		}
	}
	// The fields list the toy's.
	if _, out := ts.do(t, "POST", "/api/debates", `{"topic":"x","bogus":1}`); !strings.Contains(out, "debate_budget, toy_level, toy_loud") {
		t.Errorf("the fields named: %s", out)
	}
}

// toyServer is a server of the shipped formats and the toy.
func toyServer(t *testing.T) *testServer {
	return newTestServerWith(t, memstore.New(), app.DefaultFormatsWith(toyFormat{}), nil, "")
}

// TestNewFormatsOptionIsAFormField: a format registered with options of its
// own has a fieldset of the dashboard's new-debate form, with a field for
// each option a request can give, as its kind, range, choices, label and
// default say (no field for the option naming a file), with nothing of the
// server changed for it; a debate started from the form has the values
// entered, and a value the format refuses is said with the field's label.
func TestNewFormatsOptionIsAFormField(t *testing.T) {
	ts := toyServer(t)
	_, page := ts.do(t, "GET", "/new", "")
	_, set, _ := strings.Cut(page, `<fieldset data-format="toy">`)
	set, _, _ = strings.Cut(set, "</fieldset>")
	for _, want := range []string{
		`<label>Toy level <input type="number" name="toy_level" min="1" max="9" value="3" title="how hard the toy plays"></label>`,
		`<label class="check"><input type="checkbox" name="toy_loud"> Toy loud: play loudly</label>`,
		`<label>Colour <select name="toy_color" title="the toy&#39;s colour"><option value="">none</option><option>red</option><option>blue</option></select></label>`,
		// The toy runs with no model: it may run offline. Its field is
		// its own, as bullbear's is: a page sent without its script sends
		// every fieldset.
		`<label class="check"><input type="checkbox" name="toy_offline"> Offline: no model and no network</label>`,
	} {
		if !strings.Contains(set, want) {
			t.Errorf("the toy's fieldset lacks %s:\n%s", want, set)
		}
	}
	if strings.Contains(set, "toy_box") || strings.Contains(set, "no_checkpoints") {
		t.Errorf("the toy's fieldset has a field for a file, or for checkpoints it has none of:\n%s", set)
	}
	if !strings.Contains(page, `name="bullbear_offline"`) {
		t.Errorf("bullbear's offline field is not its own beside the toy's")
	}
	form := url.Values{"format": {"toy"}, "topic": {"Is a toy a game?"}, "toy_level": {"7"}, "toy_loud": {"on"}, "toy_color": {"blue"},
		// Another format's fields, sent by a page without its script, are not the toy's.
		"perspectives_max_rounds": {"2"}}
	resp, _ := ts.do(t, "POST", "/new", form.Encode(), "Content-Type", "application/x-www-form-urlencoded")
	id, ok := strings.CutPrefix(resp.Request.URL.Path, "/debates/")
	if resp.StatusCode != http.StatusOK || !ok {
		t.Fatalf("the form sent: %d at %s", resp.StatusCode, resp.Request.URL)
	}
	ts.waitFor(t, id, "completed", func(v DebateView) bool { return v.Status == "completed" })
	st, _, err := ts.app.Load(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	var got toyOptions
	if err := json.Unmarshal(st.Options, &got); err != nil || got != (toyOptions{Level: 7, Loud: true, Color: "blue"}) {
		t.Errorf("created from the form with %+v (%v)", got, err)
	}
	form = url.Values{"format": {"toy"}, "topic": {"Is a toy a game?"}, "toy_level": {"12"}, "toy_color": {"red"}}
	resp, page = ts.do(t, "POST", "/new", form.Encode(), "Content-Type", "application/x-www-form-urlencoded")
	if msg := html.UnescapeString(page); resp.StatusCode != http.StatusBadRequest || !strings.Contains(msg, "“Toy level” 12: choose 1 to 9") ||
		!strings.Contains(msg, `value="12"`) || !strings.Contains(msg, `<option selected>red</option>`) {
		t.Errorf("a level the toy refuses: %d, the page does not say \"“Toy level” 12: choose 1 to 9\" with the values entered:\n%s", resp.StatusCode, msg)
	}
}

// TestRequestDigestUnchanged: the digest of a create request sent with an
// Idempotency-Key is of the JSON the server wrote for it before the formats
// declared their options (this literal is json.Marshal of the request
// struct of that time), so that a request sent again across the upgrade is
// the same request, not a key reused for another.
func TestRequestDigestUnchanged(t *testing.T) {
	ts := newTestServer(t, nil, "")
	n := 3
	for want, c := range map[string]CreateRequest{
		`{"format":"council","topic":"t","perspectives":3,"max_rounds":4,"no_checkpoints":true,"agents":["a","b"],"rounds":2,"perspective":"PRO","deep":true,"framework":"altman","hints":["bull: x"],"offline":true,"snapshot":true,"risk":"averse","provider":"openai","model":"m","model_for":["moderator=x"],"turn_budget":3,"debate_budget":3}`: {
			Format: "council", Topic: "t", NoCheckpoints: true, Offline: true, Provider: "openai", Model: "m", ModelFor: []string{"moderator=x"}, TurnBudget: &n, DebateBudget: &n,
			Options: setup.Values{"perspectives": 3, "max-rounds": 4, "agents": []string{"a", "b"}, "rounds": 2, "perspective": "PRO", "deep": true,
				"framework": "altman", "hint": []string{"bull: x"}, "snapshot": true, "risk": "averse"}},
		`{"topic":"NVDA","offline":true}`: {Topic: "NVDA", Offline: true},
	} {
		idem, err := ts.requestKey("k", c)
		sum := sha256.Sum256([]byte(want))
		if err != nil || idem.Request != hex.EncodeToString(sum[:]) {
			got, _ := ts.opts.marshal(c)
			t.Errorf("the request's digest is of\n%s\nwant of\n%s", got, want)
		}
	}
}

// TestOpenAPICreateFields: the OpenAPI document's create request has the
// fields the server takes, the formats' options' among them.
func TestOpenAPICreateFields(t *testing.T) {
	ts := newTestServer(t, nil, "")
	_, body := ts.do(t, "GET", "/api/openapi.json", "")
	var doc struct {
		Components struct {
			Schemas struct {
				CreateRequest struct {
					Properties map[string]json.RawMessage
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(body), &doc); err != nil {
		t.Fatal(err)
	}
	var documented []string
	for k := range doc.Components.Schemas.CreateRequest.Properties {
		documented = append(documented, k)
	}
	slices.Sort(documented)
	taken := slices.Sorted(slices.Values(ts.opts.fields()))
	if !slices.Equal(documented, taken) {
		t.Errorf("the document's create request fields %q, the server takes %q", documented, taken)
	}
}

// mapToy is a toy format whose debates build an argument map.
type mapToy struct{ toyFormat }

func (mapToy) Name() string { return "maptoy" }

func (mapToy) ArgumentMap(*debate.State) (*debate.ArgumentMap, error) {
	return &debate.ArgumentMap{Sides: []string{"YES", "NO"},
		Arguments: []debate.MapArgument{{ID: "y1", Side: "YES", Text: "<b>fun</b>", Score: 0.8}, {ID: "n1", Side: "no", Text: "a chore", Score: 0.3}},
		Relations: []debate.MapRelation{{From: "n1", To: "y1"}}}, nil
}

// TestArgumentMapOfAnyFormat: the debate page draws the argument map of
// any format that gives one (debate.ArgumentMap), with its own sides as
// the columns, not formal's alone.
func TestArgumentMapOfAnyFormat(t *testing.T) {
	ts := newTestServerWith(t, memstore.New(), debate.NewFormats(mapToy{}), nil, "")
	id := ts.create(t, `{"format":"maptoy","topic":"Is a toy a game?"}`)
	ts.waitFor(t, id, "completed", func(v DebateView) bool { return v.Status == "completed" })
	_, panel := ts.do(t, "GET", "/debates/"+id+"/panel", "")
	for _, want := range []string{
		`<text x="110" y="20" class="col">YES</text><text x="530" y="20" class="col">NO</text>`,
		`<g class="node yes"><title>y1 (YES, score 0.80): &lt;b&gt;fun&lt;/b&gt;</title>`,
		`<g class="node no"><title>n1 (no, score 0.30): a chore</title>`,
		`class="edge attack"`,
	} {
		if !strings.Contains(panel, want) {
			t.Errorf("the panel's argument map lacks %s:\n%.3000s", want, panel)
		}
	}
}
