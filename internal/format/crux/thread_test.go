package crux

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
)

var began = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func testThread(t *testing.T, mut func(*Options)) *thread {
	t.Helper()
	ps, err := BuiltinPersonas()
	if err != nil {
		t.Fatal(err)
	}
	sel, err := ps.Select([]string{"saylor", "hayes"})
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Personas: sel}
	if mut != nil {
		mut(&o)
	}
	if err := o.Validate(); err != nil {
		t.Fatal(err)
	}
	o.topic = "Is Bitcoin digital gold?"
	return newThread(o, began)
}

var n int

// do checks and posts a move, failing the test on refusal.
func do(t *testing.T, th *thread, agent string, m Move) []event {
	t.Helper()
	if err := th.check(agent, &m); err != nil {
		t.Fatalf("%s %s refused: %v", agent, m.Move, err)
	}
	n++
	return th.post(msgID(n, agent), agent, m)
}

// refused asserts that a move is refused as repairable, with want in the reason.
func refused(t *testing.T, th *thread, agent string, m Move, want string) {
	t.Helper()
	err := th.check(agent, &m)
	if err == nil {
		t.Fatalf("%s %s was accepted, want refusal %q", agent, m.Move, want)
	}
	if !errors.Is(err, debate.ErrRepairable) || !strings.Contains(err.Error(), want) {
		t.Fatalf("%s %s: err %v, want a repairable refusal containing %q", agent, m.Move, err, want)
	}
}

func commit(side string) Move {
	return Move{Move: MoveCommit, Content: "my position", Side: side, Confidence: 0.8, TopClaim: TopClaim{Statement: "Bitcoin is a store of value", Side: Nuanced, Confidence: 0.7}}
}

func steelman(target string) Move {
	return Move{Move: MoveSteelman, Target: target, Content: "their strongest case"}
}

func grade(g string) Move { return Move{Move: MoveGrade, Grade: g, Content: "because"} }

var concrete = Falsifier{Metric: "BTC drawdown when SPY falls more than 30%", Threshold: "> 50%", Deadline: "2027-12-31", Reasoning: "a hedge does not halve in a crash"}

func falsifier(f Falsifier) Move {
	return Move{Move: MoveFalsifier, Content: "this would change my mind", Falsifier: f}
}

func inLock(t *testing.T, th *thread) {
	t.Helper()
	th.question = "Will Bitcoin fall more than 50% in the next equity bear market?"
	th.transition(CruxLock, "test")
}

// lockable brings a thread to a state that passes every lock criterion.
func lockable(t *testing.T) *thread {
	th := testThread(t, nil)
	inLock(t, th)
	do(t, th, "saylor", commit(No))
	do(t, th, "hayes", commit(Yes))
	do(t, th, "saylor", steelman("hayes"))
	do(t, th, "hayes", grade(Accurate))
	do(t, th, "saylor", falsifier(concrete))
	do(t, th, "hayes", steelman("saylor"))
	do(t, th, "saylor", grade(Accurate))
	do(t, th, "hayes", falsifier(Falsifier{Metric: "Spot BTC ETF AUM", Threshold: ">= $100B", Deadline: "2027-12-31"}))
	return th
}

func criteria(th *thread) map[string]Criterion {
	out := map[string]Criterion{}
	for _, c := range th.lockCriteria() {
		out[c.Name] = c
	}
	return out
}

func TestMovesRefusedOutsideTheirStage(t *testing.T) {
	th := testThread(t, nil)
	refused(t, th, "saylor", commit(Yes), "COMMIT_POSITION is not allowed in the DISCOVERY stage")
	refused(t, th, "saylor", steelman("hayes"), "STEELMAN is not allowed in the DISCOVERY stage")
	refused(t, th, "saylor", Move{Move: "SHOUT", Content: "x"}, "unknown move")
	refused(t, th, "saylor", Move{Move: MovePropose, Content: "x", Question: "How much will Bitcoin be worth in 2030?"}, "open or measurement question")
	do(t, th, "saylor", Move{Move: "propose question", Content: "the crux", Question: "Is Bitcoin a hedge against equity crashes?"})
	if th.question != "Is Bitcoin a hedge against equity crashes?" || th.questionBy != "saylor" {
		t.Errorf("question %q by %q", th.question, th.questionBy)
	}
	inLock(t, th)
	refused(t, th, "hayes", Move{Move: MoveClaim, Content: "x"}, "CLAIM is not allowed in the CRUX_LOCK stage; allowed moves: COMMIT_POSITION")
	refused(t, th, "hayes", Move{Move: MoveEvidence, Content: "x"}, "not allowed in the CRUX_LOCK stage")
	th.transition(Evidence, "test")
	refused(t, th, "hayes", Move{Move: MoveFalsifier, Content: "x", Falsifier: concrete}, "not allowed in the EVIDENCE stage")
	refused(t, th, "hayes", Move{Move: MoveEvidence}, "content is empty")
}

func TestChallengeBlockedUntilSteelmanAccurate(t *testing.T) {
	th := testThread(t, nil)
	inLock(t, th)
	challenge := Move{Move: MoveChallenge, Target: "hayes", Content: "you are wrong"}
	refused(t, th, "saylor", challenge, "CHALLENGE is blocked until Hayes grades your steelman of their position ACCURATE (you have not steelmanned them)")
	evs := do(t, th, "saylor", steelman("Hayes"))
	if evs[1].kind != "steelman_attempt" || evs[1].data["target"] != "hayes" {
		t.Errorf("events %+v", evs)
	}
	refused(t, th, "saylor", challenge, "CHALLENGE is blocked")
	refused(t, th, "saylor", steelman("hayes"), "still waiting for its grade")
	// The target must grade before anything else.
	refused(t, th, "hayes", commit(Yes), "Saylor steelmanned your position and you must grade it first")
	refused(t, th, "hayes", Move{Move: MoveGrade, Grade: "GOOD", Content: "x"}, "grade must be ACCURATE, INCOMPLETE or WRONG")
	do(t, th, "hayes", grade(Incomplete))
	// INCOMPLETE: the challenger must retry; the challenge stays blocked.
	refused(t, th, "saylor", challenge, "your steelman of Hayes was graded INCOMPLETE: retry it now")
	do(t, th, "saylor", steelman("hayes"))
	evs = do(t, th, "hayes", grade(Accurate))
	if evs[1].kind != "steelman_graded" || evs[1].data["grade"] != Accurate || evs[1].data["attempt"] != 2 {
		t.Errorf("events %+v", evs)
	}
	do(t, th, "saylor", challenge)
	// Hayes has not steelmanned Saylor: Hayes's challenge is still blocked.
	refused(t, th, "hayes", Move{Move: MoveChallenge, Content: "x"}, "until Saylor grades your steelman")
	refused(t, th, "hayes", Move{Move: MoveGrade, Grade: Accurate, Content: "x"}, "no steelman of your position is waiting")
}

func TestSteelmanRetriesPerPair(t *testing.T) {
	th := testThread(t, func(o *Options) { o.MaxSteelmanAttempts = 2 })
	inLock(t, th)
	do(t, th, "saylor", steelman("hayes"))
	do(t, th, "hayes", grade(Wrong))
	do(t, th, "saylor", steelman("hayes"))
	do(t, th, "hayes", grade(Incomplete))
	refused(t, th, "saylor", steelman("hayes"), "you have used your 2 steelman attempts on Hayes")
	// Out of retries, Saylor is no longer forced to retry; the other pair is untouched.
	do(t, th, "saylor", commit(No))
	do(t, th, "hayes", steelman("saylor"))
	if sm := th.steelmans[[2]string{"hayes", "saylor"}]; sm.Attempts != 1 || !sm.Pending {
		t.Errorf("hayes→saylor %+v", sm)
	}
	c := criteria(th)[CritSteelmans]
	if c.Passed || !strings.Contains(c.Detail, "Saylor's steelman of Hayes was graded INCOMPLETE after 2 attempts") || !strings.Contains(c.Detail, "Hayes's steelman of Saylor awaits its grade") {
		t.Errorf("criterion %+v", c)
	}
}

func TestLockCriteria(t *testing.T) {
	th := lockable(t)
	for _, c := range th.lockCriteria() {
		if !c.Passed {
			t.Errorf("criterion %s failed on a lockable thread: %s", c.Name, c.Detail)
		}
	}
	if !th.ready() || !th.lockDue() {
		t.Error("a lockable thread is not due for its lock")
	}
	for _, tc := range []struct {
		name   string
		mut    func(th *thread)
		failed []string
		detail string
	}{
		{"missing commitment", func(th *thread) { delete(th.commitments, "hayes") }, []string{CritCommitments, CritSplit}, "not committed: Hayes"},
		{"all uncertain", func(th *thread) {
			for id, c := range th.commitments {
				c.Side = Uncertain
				th.commitments[id] = c
			}
		}, []string{CritSplit}, "no YES/NO split: Saylor UNCERTAIN, Hayes UNCERTAIN"},
		{"same side", func(th *thread) {
			c := th.commitments["hayes"]
			c.Side = No
			th.commitments["hayes"] = c
		}, []string{CritSplit}, "no YES/NO split"},
		{"steelman not accurate", func(th *thread) { th.steelmans[[2]string{"hayes", "saylor"}].Grade = Incomplete }, []string{CritSteelmans}, "Hayes's steelman of Saylor was graded INCOMPLETE"},
		{"steelman missing", func(th *thread) { delete(th.steelmans, [2]string{"saylor", "hayes"}) }, []string{CritSteelmans}, "Saylor has not steelmanned Hayes"},
		{"falsifier missing", func(th *thread) { delete(th.falsifiers, "hayes") }, []string{CritFalsifiers}, "no concrete falsifier: Hayes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			th := lockable(t)
			tc.mut(th)
			var failed []string
			details := ""
			for _, c := range th.lockCriteria() {
				if !c.Passed {
					failed = append(failed, c.Name)
					details += c.Detail + "\n"
				}
			}
			if strings.Join(failed, ",") != strings.Join(tc.failed, ",") || !strings.Contains(details, tc.detail) {
				t.Errorf("failed %v (%s), want %v with %q", failed, details, tc.failed, tc.detail)
			}
			evs := th.attemptLock()
			if th.locked || th.stage != CruxLock || evs[1].kind != "lock_failed" || evs[2].kind != "moderator_intervention" {
				t.Errorf("locked %v stage %s events %+v", th.locked, th.stage, evs)
			}
		})
	}
	evs := th.attemptLock()
	if !th.locked || th.stage != Evidence || evs[0].kind != "lock_attempted" || evs[1].kind != "lock_succeeded" || evs[2].kind != "stage_transition" {
		t.Errorf("lock on a lockable thread: locked %v stage %s events %+v", th.locked, th.stage, evs)
	}
}

func TestFalsifierValidation(t *testing.T) {
	ok := []Falsifier{
		concrete,
		{Metric: "Spot BTC ETF AUM", Threshold: ">= $100B", Deadline: "2027-12-31"},
		{Metric: "BTC price", Threshold: "Drops >50% when SPY drops >30%", Deadline: "Q4 2027"},
		{Metric: "Central bank BTC holdings", Threshold: "at least 3 central banks", Deadline: "2028"},
	}
	for _, f := range ok {
		if err := ValidateFalsifier(f, began); err != nil {
			t.Errorf("%+v refused: %v", f, err)
		}
	}
	for _, tc := range []struct {
		f    Falsifier
		want string
	}{
		{Falsifier{Metric: "BTC and stocks", Threshold: "Probably correlated", Deadline: "2027-12-31"}, "no number"},
		{Falsifier{Metric: "BTC and stocks probably correlated", Threshold: "> 0.8", Deadline: "2027-12-31"}, `is vague ("probably")`},
		{Falsifier{Metric: "BTC price", Threshold: "a significant drop of 20%", Deadline: "2027-12-31"}, `vague ("significant")`},
		{Falsifier{Metric: "BTC price", Threshold: "> $200k", Deadline: "soon"}, `vague ("soon")`},
		{Falsifier{Metric: "BTC price", Threshold: "> $200k", Deadline: "next cycle"}, "is not a date"},
		{Falsifier{Metric: "BTC price", Threshold: "> $200k", Deadline: "2025-06-30"}, "not after the debate began"},
		{Falsifier{Metric: "", Threshold: "> $200k", Deadline: "2027-01-01"}, "needs a metric"},
		{Falsifier{Metric: "BTC price", Threshold: "", Deadline: "2027-01-01"}, "needs a threshold"},
		{Falsifier{Metric: "BTC price", Threshold: "> $200k", Deadline: ""}, "needs a deadline"},
	} {
		if err := ValidateFalsifier(tc.f, began); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err %v, want %q", tc.f, err, tc.want)
		}
	}
	// Declared in a debate, a vague falsifier is refused for repair.
	th := testThread(t, nil)
	inLock(t, th)
	refused(t, th, "saylor", falsifier(Falsifier{Metric: "BTC vs SPY", Threshold: "probably correlated", Deadline: "2027-12-31"}), "no number")
	refused(t, th, "saylor", falsifier(Falsifier{Metric: "BTC vs SPY correlation", Threshold: "many times above 0.5", Deadline: "2027-12-31"}), `vague ("many")`)
}

func TestBinaryQuestion(t *testing.T) {
	for _, q := range []string{"Is Bitcoin digital gold?", "Will spot BTC ETF AUM exceed $100B by 2027?", "Does Bitcoin fall with equities in a crash?"} {
		if err := ValidateBinaryQuestion(q); err != nil {
			t.Errorf("%q: %v", q, err)
		}
	}
	for q, want := range map[string]string{
		"How much will Bitcoin be worth?": "open or measurement",
		"What drives Bitcoin's price?":    "open or measurement",
		"Bitcoin is digital gold?":        "not a yes/no question",
		"Is Bitcoin digital gold":         "end it with a question mark",
		"Is it?":                          "too short",
		"To what extent is BTC a hedge?":  "open or measurement",
	} {
		if err := ValidateBinaryQuestion(q); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err %v, want %q", q, err, want)
		}
	}
}

// failLock runs one failed lock attempt and returns its intervention event.
func failLock(t *testing.T, th *thread) event {
	t.Helper()
	th.stageMsgs++ // a message since the last attempt
	evs := th.attemptLock()
	if len(evs) < 3 || evs[1].kind != "lock_failed" {
		t.Fatalf("events %+v", evs)
	}
	return evs[2]
}

func TestModeratorInterventions(t *testing.T) {
	th := testThread(t, nil)
	inLock(t, th)
	do(t, th, "saylor", commit(Uncertain))
	do(t, th, "hayes", commit(Uncertain))

	// 1st failure: a clarifying prompt naming what is missing.
	iv := failLock(t, th)
	if iv.kind != "moderator_intervention" || iv.data["intervention"] != InterveneClarify ||
		!strings.Contains(iv.text, "The lock needs one YES and one NO") || !strings.Contains(iv.text, "Declare a falsifier") || !strings.Contains(iv.text, "Steelman your opponent") {
		t.Errorf("first intervention %+v", iv)
	}
	if th.needsModerator() != "" || th.lockDueAt != th.stageMsgs+th.opts.LockRetryBudget {
		t.Errorf("after one failure: moderator turn %q, next lock at %d", th.needsModerator(), th.lockDueAt)
	}
	if !strings.Contains(th.status(), "After lock attempt 1: The crux did not lock") {
		t.Error("the agents' prompt lacks the intervention")
	}

	// 2nd failure: binary framing is forced by a moderator turn; commitments
	// are reset and UNCERTAIN is refused from then on.
	iv = failLock(t, th)
	if iv.data["intervention"] != InterveneBinary || th.needsModerator() != modFrameLock {
		t.Fatalf("second intervention %+v; moderator turn %q", iv, th.needsModerator())
	}
	evs := th.applyFrame(modFrameLock, &Frame{Question: "Will BTC fall more than 50% in the next SPY drawdown of 30%?"}, "")
	if th.question != "Will BTC fall more than 50% in the next SPY drawdown of 30%?" || !th.forcedBinary || len(th.commitments) != 0 || evs[0].kind != "moderator_intervention" {
		t.Errorf("after framing: %q forced %v commitments %v", th.question, th.forcedBinary, th.commitments)
	}
	refused(t, th, "saylor", commit(Uncertain), "forced a binary framing: commit YES or NO")
	do(t, th, "saylor", commit(No))
	if th.needsModerator() != "" {
		t.Error("the framing turn is asked twice")
	}

	// 3rd failure: the moderator proposes falsifiers from the dialogue; only
	// concrete ones, for agents without one, are taken.
	iv = failLock(t, th)
	if iv.data["intervention"] != InterveneFalsifiers || th.needsModerator() != modFalsifiers {
		t.Fatalf("third intervention %+v; moderator turn %q", iv, th.needsModerator())
	}
	do(t, th, "hayes", commit(Yes)) // a retry message before the proposals land is not needed; just more state
	th.applyProposals(&Proposals{Falsifiers: []Falsifier{
		{Agent: "saylor", Metric: "BTC drawdown in the next SPY bear market", Threshold: "> 50%", Deadline: "2028-12-31", Reasoning: "Saylor said a hedge holds"},
		{Agent: "hayes", Metric: "BTC and SPY", Threshold: "probably correlated", Deadline: "2028-12-31"},
		{Agent: "nobody", Metric: "x metric", Threshold: "> 1", Deadline: "2028-12-31"},
	}}, "")
	if fs := th.falsifiers["saylor"]; len(fs) != 1 || fs[0].ProposedBy != "moderator" || len(th.falsifiers["hayes"]) != 0 {
		t.Errorf("falsifiers %+v", th.falsifiers)
	}

	// 4th failure (the last attempt): the debate ends without a locked crux.
	th.stageMsgs++
	evs = th.attemptLock()
	if th.stage != Converged || th.locked || evs[len(evs)-1].kind != "stage_transition" || !strings.Contains(th.endReason, "no crux could be locked in 4 attempts") {
		t.Errorf("stage %s locked %v reason %q events %+v", th.stage, th.locked, th.endReason, evs)
	}
	if th.needsModerator() != modCrystallise {
		t.Errorf("moderator turn %q, want the crystallisation", th.needsModerator())
	}
}

func TestDiscoveryFramingWhenNoQuestion(t *testing.T) {
	th := testThread(t, func(o *Options) { o.DiscoveryMin, o.DiscoveryMax = 1, 2 })
	do(t, th, "saylor", Move{Move: MoveClaim, Content: "scarcity"})
	if th.needsModerator() != "" {
		t.Error("framing before the discovery budget is spent")
	}
	do(t, th, "hayes", Move{Move: MoveClaim, Content: "liquidity"})
	if th.needsModerator() != modFrameDiscovery {
		t.Fatalf("moderator turn %q", th.needsModerator())
	}
	th.applyFrame(modFrameDiscovery, nil, "no JSON object in the reply")
	if th.question != "Is Bitcoin digital gold?" || th.forcedBinary {
		t.Errorf("fallback question %q, forced %v", th.question, th.forcedBinary)
	}
	if got := topicQuestion("Bitcoin is digital gold"); got != `Does the claim "Bitcoin is digital gold" hold?` {
		t.Errorf("topic question %q", got)
	}
}

func TestPersonas(t *testing.T) {
	ps, err := BuiltinPersonas()
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"saylor", "hayes"} {
		if p, ok := ps[id]; !ok || p.Viewpoint == "" {
			t.Errorf("built-in persona %s missing", id)
		}
	}
	if _, err := ps.Select([]string{"saylor"}); err == nil || !strings.Contains(err.Error(), "two personas") {
		t.Errorf("one persona: %v", err)
	}
	if _, err := ps.Select([]string{"saylor", "nakamoto"}); err == nil || !strings.Contains(err.Error(), `no persona "nakamoto"`) {
		t.Errorf("unknown persona: %v", err)
	}
	if _, err := ps.Select([]string{"hayes", "Hayes"}); err == nil {
		t.Error("a persona debating itself was accepted")
	}
}

// TestPersonasFileErrors: a personas file the decoder refuses is explained
// in the file's terms, naming the file and the line; never a Go type.
func TestPersonasFileErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ name, body, want string }{
		{"unknown-key.yaml", "personas:\n  - id: gold\n    nme: Gold\n", `line 3: unknown key "nme" (the keys under personas: id, name, viewpoint, priorities)`},
		{"wrong-kind.yaml", "personas:\n  - id: gold\n    name: Gold\n    viewpoint: v\n    priorities: hard money\n", `line 5: priorities: "hard money" is not a list`},
		{"unknown-top.yaml", "persona:\n  - id: gold\n", `line 1: unknown key "persona" (the keys at the top level: personas)`},
	} {
		path := filepath.Join(dir, tc.name)
		if err := os.WriteFile(path, []byte(tc.body), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := LoadPersonas(path)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "personas file "+path) {
			t.Errorf("%s: %v\nwant it to name the file and say %s", tc.name, err, tc.want)
		}
		if err != nil && (strings.Contains(err.Error(), "crux.") || strings.Contains(err.Error(), "!!")) {
			t.Errorf("%s: %v names a Go or YAML type", tc.name, err)
		}
	}
}

// TestPersonasFileBounds: a personas file is held to the bounds of a cast.
func TestPersonasFileBounds(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ name, body, want string }{
		{"long.yaml", "personas:\n  - id: gold\n    name: " + strings.Repeat("g", 61) + "\n    viewpoint: v\n", "the name is 61 characters; keep it to 60"},
		{"escape.yaml", "personas:\n  - id: gold\n    name: \"Gold\\e[2J\"\n    viewpoint: v\n", `the name "Gold\x1b[2J" holds a line break`},
		{"lines.yaml", "personas:\n  - id: gold\n    name: \"Gold\\nModerator\"\n    viewpoint: v\n", "one line of plain text"},
		{"priority.yaml", "personas:\n  - id: gold\n    name: Gold\n    viewpoint: v\n    priorities: [\"a\\u202eb\"]\n", `the priority "a\u202eb" holds`},
	} {
		path := filepath.Join(dir, tc.name)
		if err := os.WriteFile(path, []byte(tc.body), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadPersonas(path); err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v\nwant it to name the file and say %s", tc.name, err, tc.want)
		}
	}
}

// TestRecordedPersonasOutsideTheBounds: a debate recorded with personas a
// cast or a personas file may no longer hold (a name of 80 characters)
// still gives its protocol, so that it renders and resumes.
func TestRecordedPersonasOutsideTheBounds(t *testing.T) {
	long := strings.Repeat("n", 80)
	opts := `{"personas":[{"id":"gold","name":"` + long + `","viewpoint":"v"},{"id":"fiat","name":"Fiat","viewpoint":"w"}]}`
	if _, err := (Format{}).Protocol("Is gold money?", []byte(opts)); err != nil {
		t.Errorf("a recorded persona named with %d characters: %v", len(long), err)
	}
}
