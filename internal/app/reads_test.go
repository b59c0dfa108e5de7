package app

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/setup"
)

// An option given for a format that does not read it is refused, naming
// the formats that do; the same option for a format that reads it, or set
// by the config file rather than asked for, is not.
func TestOptionsOfAnotherFormatAreRefused(t *testing.T) {
	ctx := context.Background()
	a := testApp(t, map[string]string{"OPENAI_API_KEY": "sk-test"})
	for _, tc := range []struct {
		format     string
		given      []string
		fromConfig []string
		says       string // "" for accepted
	}{
		{"perspectives", []string{"agents"}, nil, "--agents: with no --format this debate is perspectives, which has no --agents (council and crux take it): choose the format with --format, or drop --agents"},
		{"formal", []string{"format", "max-rounds"}, nil, "--max-rounds: the formal format has no --max-rounds (council and perspectives take it): drop it, or choose another --format"},
		{"crux", []string{"format", "risk"}, nil, "--risk: the crux format has no --risk (council takes it)"},
		{"council", []string{"format", "rounds"}, nil, "--rounds: the council format has no --rounds (formal takes it)"},
		{"perspectives", []string{"snapshot"}, nil, "--snapshot: with no --format this debate is perspectives, which has no --snapshot (bullbear and council take it)"},
		{"formal", []string{"format", "max-rounds"}, []string{"max-rounds"}, ""},
		{"council", []string{"format", "agents", "max-rounds", "risk"}, nil, ""},
		{"formal", []string{"format", "rounds", "perspective"}, nil, ""},
	} {
		req := request(tc.format, "Should we migrate the monolith to microservices?")
		req.Models = Models{Provider: "openai", Model: "gpt-4.1"}
		given := tc.given
		req.Given = func(name string) bool { return strings.Contains(" "+strings.Join(given, " ")+" ", " "+name+" ") }
		req.FromConfig = tc.fromConfig
		_, err := a.Plan(ctx, req)
		var ie *setup.InputError
		refused := errors.As(err, &ie) && strings.HasPrefix(err.Error(), "--")
		switch {
		case tc.says == "" && refused:
			t.Errorf("%s with %v: refused: %v", tc.format, tc.given, err)
		case tc.says != "" && (!refused || !strings.Contains(err.Error(), tc.says)):
			t.Errorf("%s with %v: %v; want it refused saying %q", tc.format, tc.given, err, tc.says)
		}
	}
}

// TestShippedOptionsAgree: the options the shipped formats declare make one
// set of flags and fields (a name two formats declare has one kind), as the
// front-ends offer them.
func TestShippedOptionsAgree(t *testing.T) {
	union, err := setup.Union(DefaultFormats())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range union {
		got = append(got, d.Name+"="+strings.Join(d.Formats, ","))
	}
	want := "deep=bullbear framework=bullbear hint=bullbear snapshot=bullbear,council agents=council,crux max-rounds=council,perspectives risk=council " +
		"personas=crux rounds=formal perspective=formal context=formal perspectives=perspectives catalog=perspectives custom-perspectives=perspectives"
	if strings.Join(got, " ") != want {
		t.Errorf("the shipped formats' options:\n%s\nwant\n%s", strings.Join(got, " "), want)
	}
}

// The config file's snapshot is a default: --offline, which reads the same
// shipped data, goes on without it, where a --snapshot asked for with
// --offline is refused.
func TestOfflineOverTheConfigFilesSnapshot(t *testing.T) {
	ctx := context.Background()
	a := testApp(t, nil)
	for _, asked := range []bool{false, true} {
		req := withValue(request("bullbear", "NVDA"), setup.SnapshotName, true)
		req.Offline = true
		req.Given = func(name string) bool { return asked && name == setup.SnapshotName }
		if !asked {
			req.FromConfig = []string{setup.SnapshotName}
		}
		_, err := a.Plan(ctx, req)
		switch {
		case asked && (err == nil || !strings.Contains(err.Error(), "--offline and --snapshot")):
			t.Errorf("--snapshot asked for with --offline: %v, want it refused", err)
		case !asked && err != nil:
			t.Errorf("the config file's snapshot with --offline: %v, want offline", err)
		}
	}
}
