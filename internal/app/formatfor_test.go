package app

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/setup"
)

// claimer is a format only these tests register, which a request that
// names no format implies when claims says so: what a new format does to
// be inferred, a method, with nothing of the application layer or the
// front-ends written for it.
type claimer struct {
	name   string
	claims func(*setup.Request) bool
}

func (c claimer) Name() string { return c.name }

func (claimer) Protocol(string, json.RawMessage) (debate.Protocol, error) { return nil, nil }

func (claimer) Render(*debate.State, debate.RenderOptions) (string, error) { return "", nil }

func (c claimer) Implied(r *setup.Request) bool { return c.claims(r) }

// toyTopic: the toy claims a topic that starts "toy:".
func toyTopic(r *setup.Request) bool { return strings.HasPrefix(r.Topic, "toy:") }

// TestFormatForAsksTheFormats: the format of a request that names none is
// the one a registered format claims (setup.Implier), else the default;
// a batch's requests run one format, the one each implies alike. A format
// registered with a claim of its own is inferred with nothing of the
// application layer written for it, and the shipped rule (bullbear for a
// ticker or an option only it reads) is bullbear's.
func TestFormatForAsksTheFormats(t *testing.T) {
	req := func(topic string, kv ...any) *setup.Request {
		r := &setup.Request{Topic: topic, Values: setup.Values{}}
		for i := 0; i+1 < len(kv); i += 2 {
			r.Values[kv[i].(string)] = kv[i+1]
		}
		return r
	}
	toy := DefaultFormatsWith(claimer{name: "toy", claims: toyTopic})
	for _, tc := range []struct {
		name string
		fs   *debate.Formats
		reqs []*setup.Request
		want string
	}{
		{"a question", toy, []*setup.Request{req("Should we use Redis?")}, DefaultFormat},
		{"the toy's topic", toy, []*setup.Request{req("toy: is a ball a game?")}, "toy"},
		{"the toy unregistered", DefaultFormats(), []*setup.Request{req("toy: is a ball a game?")}, DefaultFormat},
		{"a ticker", toy, []*setup.Request{req("NVDA")}, "bullbear"},
		{"a cashtag", toy, []*setup.Request{req("$nvda")}, "bullbear"},
		{"--deep", toy, []*setup.Request{req("Should we?", "deep", true)}, "bullbear"},
		{"--snapshot", toy, []*setup.Request{req("Should we?", setup.SnapshotName, true)}, "bullbear"},
		{"--framework", toy, []*setup.Request{req("Should we?", "framework", "piotroski")}, "bullbear"},
		{"--hint", toy, []*setup.Request{req("Should we?", "hint", []string{"bull: margins"})}, "bullbear"},
		{"--offline", toy, []*setup.Request{{Topic: "Should we?", Offline: true}}, "bullbear"},
		{"--deep false", toy, []*setup.Request{req("Should we?", "deep", false)}, DefaultFormat},
		{"another format's option", toy, []*setup.Request{req("Should we?", "max-rounds", 3)}, DefaultFormat},
		{"a batch of tickers", toy, []*setup.Request{req("NVDA"), req("AAPL")}, "bullbear"},
		{"a batch of the toy's", toy, []*setup.Request{req("toy: a"), req("toy: b")}, "toy"},
		{"a batch of a ticker and a question", toy, []*setup.Request{req("NVDA"), req("Should we?")}, DefaultFormat},
		{"a batch of a question and a ticker", toy, []*setup.Request{req("Should we?"), req("NVDA")}, DefaultFormat},
		{"a batch of a ticker and the toy's", toy, []*setup.Request{req("NVDA"), req("toy: a")}, DefaultFormat},
		{"no request", toy, nil, DefaultFormat},
		// Two formats claiming one request: the first by name.
		{"two claim it", DefaultFormatsWith(claimer{name: "aardvark", claims: func(r *setup.Request) bool { return r.Topic == "NVDA" }}),
			[]*setup.Request{req("NVDA")}, "aardvark"},
	} {
		if got := FormatFor(tc.fs, tc.reqs...); got != tc.want {
			t.Errorf("%s: FormatFor = %q, want %q", tc.name, got, tc.want)
		}
	}
}
