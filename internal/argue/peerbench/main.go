// Command peerbench runs `parley af` (or `parley-af`) and a peer ICCMA
// solver (μ-toksia, see shared/peers/README.md) side by side on the ICCMA
// sample instances, checks both against the reference answers, and prints a
// Markdown table: instance, task, both times (minimum of interleaved runs),
// the speedup and both peak resident set sizes.
//
//	go run ./internal/argue/peerbench -peer "$(../shared/peers/build-mu-toksia.sh)"
//
// With -random DIR it writes the random frameworks of internal/argue/randaf
// (fixed seeds, hard cores after the grounded reduction) to DIR and runs
// the goal tasks on them instead. They have no reference answers, so each
// answer is judged by agreement with the peer: the same YES/NO for DC/DS,
// the same existence for SE-ST with Parley's extension checked to be
// stable, and for SE-PR Parley's extension checked to be complete. With
// -dense as well it runs randaf's dense frameworks (seconds a query, where
// the SAT core's search policies decide) instead, with -chains the
// chains of small strongly connected components (randaf.Chains), or with
// -families the generator families (randaf.Families: Barabási–Albert with
// mutual attacks, Watts–Strogatz, one large component, long-range attacks,
// dense self-attacks, isolated arguments).
//
//	go build -o /tmp/x/parley-af ./cmd/parley-af
//	go run ./internal/argue/peerbench -parley /tmp/x/parley-af -random /tmp/x/random
//
// Times are whole processes (start-up, parsing and solving), as ICCMA
// measures them; `go test -bench . ./internal/argue` measures the solver in
// process. The small instances (full reference lists) are run once each
// for correctness only; the large ones, and all random ones, are timed.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/parleyhq/parley/internal/argue/randaf"
)

// config is what one benchmark run covers.
type config struct {
	parley, peer string        // binaries
	data         string        // directory of */*.answers.json and .af files
	random       string        // if set: write randaf's instances here and run them instead of data
	dense        bool          // with random: randaf.Dense instead of randaf.Instances
	chains       bool          // with random: randaf.Chains instead of randaf.Instances
	families     bool          // with random: randaf.Families instead of randaf.Instances
	tasks        []string      // e.g. DC-CO; tasks the peer lacks are run by Parley only
	runs         int           // timed runs per solver (minimum reported)
	timeout      time.Duration // per process
	only         string        // substring an instance name must contain ("" = all)
}

// defaultTasks are the ICCMA'23 main-track problems both solvers offer,
// plus SE-GR (Parley only: μ-toksia does not answer it).
func defaultTasks() []string {
	return []string{"DC-CO", "DC-PR", "DS-PR", "SE-PR", "DC-ST", "DS-ST", "SE-ST", "SE-CO", "SE-GR",
		"DC-SST", "DS-SST", "SE-SST", "DC-STG", "DS-STG", "SE-STG", "DC-ID", "SE-ID"}
}

// goalTasks are the problems issue 13 sets a target on (geometric mean of
// the speedup ≥ 1 on the large instances).
func goalTasks() []string { return []string{"DC-CO", "DS-PR", "SE-PR", "SE-ST", "DS-ST"} }

// peerTasks are the problems μ-toksia answers (its --problems, less AD,
// which Parley does not offer).
func peerTasks() []string {
	var out []string
	for _, k := range []string{"DC", "DS", "SE"} {
		for _, s := range []string{"CO", "PR", "ST", "SST", "STG", "ID"} {
			out = append(out, k+"-"+s)
		}
	}
	return out
}

// DefaultPeer is where shared/peers/build-mu-toksia.sh puts the binary by
// default; $MU_TOKSIA overrides it.
func DefaultPeer() string {
	if p := os.Getenv("MU_TOKSIA"); p != "" {
		return p
	}
	cache := os.Getenv("XDG_CACHE_HOME")
	if cache == "" {
		home, _ := os.UserHomeDir()
		cache = filepath.Join(home, ".cache")
	}
	return filepath.Join(cache, "mu-toksia", "mu-toksia", "build", "release", "bin", "mu-toksia")
}

func main() {
	var cfg config
	var tasks string
	flag.StringVar(&cfg.parley, "parley", "", "parley binary (default: build ./cmd/parley into a temporary directory)")
	flag.StringVar(&cfg.peer, "peer", DefaultPeer(), "μ-toksia binary (shared/peers/build-mu-toksia.sh prints its path)")
	flag.StringVar(&cfg.data, "data", "internal/argue/testdata/iccma", "directory holding the instances and *.answers.json")
	flag.StringVar(&cfg.random, "random", "", "write the random frameworks of internal/argue/randaf to this directory and run them instead of -data")
	flag.BoolVar(&cfg.dense, "dense", false, "with -random: the dense frameworks (randaf.Dense: long single SAT searches, seconds a query) instead")
	flag.BoolVar(&cfg.chains, "chains", false, "with -random: the chains of small strongly connected components (randaf.Chains) instead")
	flag.BoolVar(&cfg.families, "families", false, "with -random: the generator families (randaf.Families: ba_recip, ws, bigscc, farahead, dense_self, isolated) instead")
	flag.StringVar(&tasks, "tasks", "", "comma-separated problems (default: "+strings.Join(defaultTasks(), ",")+"; with -random: "+strings.Join(goalTasks(), ",")+")")
	flag.IntVar(&cfg.runs, "runs", 3, "timed runs per solver and case; the minimum is reported")
	flag.DurationVar(&cfg.timeout, "timeout", 30*time.Second, "time limit per process")
	flag.StringVar(&cfg.only, "only", "", "run only instances whose file name contains this")
	flag.Parse()
	sets := 0
	for _, on := range []bool{cfg.dense, cfg.chains, cfg.families} {
		if on {
			sets++
		}
	}
	if sets > 0 && cfg.random == "" {
		fmt.Fprintln(os.Stderr, "peerbench: -dense, -chains and -families need -random DIR (the directory to write the frameworks to)")
		os.Exit(2)
	}
	if sets > 1 {
		fmt.Fprintln(os.Stderr, "peerbench: -dense, -chains and -families are instance sets: pass one of them")
		os.Exit(2)
	}
	switch {
	case tasks != "":
		cfg.tasks = strings.Split(tasks, ",")
	case cfg.random != "":
		cfg.tasks = goalTasks()
	default:
		cfg.tasks = defaultTasks()
	}
	ctx := context.Background()
	if _, _, err := run(ctx, cfg, os.Stdout); err != nil {
		slog.Error("peerbench", "err", err)
		os.Exit(1)
	}
}

// errPeerMissing says the peer binary is not there (the test skips on it).
var errPeerMissing = errors.New("peer solver not built")

// run measures every case, writes the report to w and returns the timed
// rows and the tally of the small instances.
func run(ctx context.Context, cfg config, w io.Writer) ([]row, tally, error) {
	var rows []row
	var small tally
	var floor *row
	if _, err := os.Stat(cfg.peer); err != nil {
		return nil, small, fmt.Errorf("%w: %s: run shared/peers/build-mu-toksia.sh or pass -peer: %w", errPeerMissing, cfg.peer, err)
	}
	if cfg.parley == "" {
		dir, err := os.MkdirTemp("", "peerbench")
		if err != nil {
			return nil, small, fmt.Errorf("temporary directory for the parley binary: %w", err)
		}
		defer os.RemoveAll(dir)
		cfg.parley = filepath.Join(dir, "parley")
		build := exec.CommandContext(ctx, "go", "build", "-o", cfg.parley, "github.com/parleyhq/parley/cmd/parley")
		build.Stderr = os.Stderr
		if err := build.Run(); err != nil {
			return nil, small, fmt.Errorf("build parley (or pass -parley): %w", err)
		}
	}
	load := loadInstance
	files, err := filepath.Glob(filepath.Join(cfg.data, "*", "*.answers.json"))
	if cfg.random != "" {
		ins := randaf.Instances()
		switch {
		case cfg.dense:
			ins = randaf.Dense()
		case cfg.chains:
			ins = randaf.Chains()
		case cfg.families:
			ins = randaf.Families()
		}
		if files, err = writeRandom(cfg.random, ins); err != nil {
			return nil, small, err
		}
		load = randomInstance
	}
	if err != nil || len(files) == 0 {
		return nil, small, fmt.Errorf("no reference answers under %s (pass -data): %v", cfg.data, err)
	}
	for _, f := range files {
		in, ok, err := load(f)
		if err != nil {
			return nil, small, err
		}
		if ok && in.af.Len() == 0 {
			// The empty framework measures each binary's start-up.
			r := benchCase{in: in, task: "SE-CO"}.measure(ctx, cfg, 3*cfg.runs)
			floor = &r
			if in.byPeer {
				continue // written for the floor only: it has no argument to ask about
			}
		}
		if !ok || cfg.only != "" && !strings.Contains(in.name, cfg.only) {
			continue
		}
		for _, task := range cfg.tasks {
			args := []string{""}
			if !strings.HasPrefix(task, "SE-") {
				args = in.args
				if len(args) == 0 && in.large {
					// No reference queries (st_890): time argument 1
					// anyway and compare the two answers.
					args = []string{"1"}
				}
			}
			for _, arg := range args {
				c := benchCase{in: in, task: task, arg: arg}
				if !in.large {
					small.add(c.measure(ctx, cfg, 1))
					continue
				}
				r := c.measure(ctx, cfg, cfg.runs)
				rows = append(rows, r)
				slog.Info("measured", "instance", in.name, "task", task, "arg", arg,
					"parley", r.parley.show(), "peer", r.peer.show())
			}
		}
	}
	report(w, cfg, rows, small, floor)
	return rows, small, nil
}

type benchCase struct {
	in        instance
	task, arg string
}

// result is one solver's outcome on a case.
type result struct {
	ms      float64 // minimum wall-clock time over the runs, in milliseconds
	rssKB   int64   // largest peak resident set size over the runs
	rssMax  bool    // rssKB is only an upper bound (see ownPeakRSSKB)
	verdict string
	note    string
	answer  string // first line of the output
}

func (r result) show() string {
	switch r.verdict {
	case vNA, vTimeout, vError:
		return r.verdict
	}
	return fmt.Sprintf("%.1fms %s", r.ms, r.verdict)
}

type row struct {
	benchCase
	parley, peer result
}

// measure runs both solvers runs times, interleaved (the order alternates
// so that neither always runs on a warmer cache). A timeout or error is
// not retried.
func (c benchCase) measure(ctx context.Context, cfg config, runs int) row {
	r := row{benchCase: c}
	r.parley.ms, r.peer.ms = math.Inf(1), math.Inf(1)
	peerOffers := slices.Contains(peerTasks(), c.task)
	if !peerOffers {
		r.peer.verdict = vNA
	}
	for i := range runs {
		order := []*result{&r.parley, &r.peer}
		bins := []string{cfg.parley, cfg.peer}
		if i%2 == 1 {
			order[0], order[1] = order[1], order[0]
			bins[0], bins[1] = bins[1], bins[0]
		}
		for k, res := range order {
			if res.verdict == vNA || res.verdict == vTimeout || res.verdict == vError {
				continue
			}
			own := ownPeakRSSKB()
			out, ms, rss, err := c.exec(ctx, bins[k], cfg.timeout)
			if rss > res.rssKB {
				res.rssKB, res.rssMax = rss, rss <= own
			}
			switch {
			case errors.Is(err, context.DeadlineExceeded):
				res.verdict = vTimeout
				continue
			case err != nil:
				res.verdict, res.note = vError, err.Error()
				continue
			}
			res.ms = min(res.ms, ms)
			res.verdict, res.note = c.in.check(c.task, c.arg, out)
			res.answer, _, _ = strings.Cut(strings.TrimSpace(out), "\n")
		}
	}
	if c.in.byPeer {
		r.judgeByPeer()
	}
	return r
}

// exec runs one solver process and returns its output, wall-clock time and
// peak RSS.
func (c benchCase) exec(ctx context.Context, bin string, timeout time.Duration) (string, float64, int64, error) {
	args := []string{"-p", c.task, "-f", c.in.path}
	if filepath.Base(bin) == "parley" {
		args = append([]string{"af"}, args...)
	}
	if c.arg != "" {
		args = append(args, "-a", c.arg)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	err := cmd.Run()
	ms := float64(time.Since(start).Microseconds()) / 1000
	rss := peakRSSKB(cmd.ProcessState)
	if ctx.Err() != nil {
		return "", ms, rss, ctx.Err()
	}
	if err != nil {
		return "", ms, rss, fmt.Errorf("%s %s: %w: %s", filepath.Base(bin), strings.Join(args, " "), err, strings.TrimSpace(errOut.String()))
	}
	return out.String(), ms, rss, nil
}

// tally counts verdicts on the small instances.
type tally struct {
	cases              int
	parley, peer       map[string]int
	parleyBad, peerBad []string
}

func (t *tally) add(r row) {
	if t.parley == nil {
		t.parley, t.peer = map[string]int{}, map[string]int{}
	}
	t.cases++
	t.parley[r.parley.verdict]++
	t.peer[r.peer.verdict]++
	what := fmt.Sprintf("%s %s %s", r.in.name, r.task, r.arg)
	if bad(r.parley.verdict) {
		t.parleyBad = append(t.parleyBad, what+": "+r.parley.verdict+" "+r.parley.note)
	}
	if bad(r.peer.verdict) {
		t.peerBad = append(t.peerBad, what+": "+r.peer.verdict+" "+r.peer.note)
	}
}

func bad(v string) bool { return v == vWrong || v == vDisagree || v == vError || v == vTimeout }

func report(w io.Writer, cfg config, rows []row, small tally, floor *row) {
	if cfg.random != "" {
		set := "Instances"
		switch {
		case cfg.dense:
			set = "Dense"
		case cfg.chains:
			set = "Chains"
		case cfg.families:
			set = "Families"
		}
		fmt.Fprintf(w, "Instances: the random frameworks of internal/argue/randaf (%s, fixed seeds), written to %s. Parley: %s.\n", set, cfg.random, filepath.Base(cfg.parley))
	}
	fmt.Fprintf(w, "Times: minimum of %d interleaved runs per solver, whole process (start-up, parsing, solving), limit %s.\n", cfg.runs, cfg.timeout)
	fmt.Fprintf(w, "Speedup = μ-toksia time / Parley time (> 1: Parley faster). RSS = peak resident set size; \"≤\" marks a\n")
	fmt.Fprintf(w, "figure no larger than this harness's own peak, which Linux folds into a child's (vfork, then exec), so only a bound.\n\n")
	if floor != nil {
		fmt.Fprintf(w, "Start-up floor (empty framework, SE-CO, minimum of %d runs): Parley %s ms, %s MB; μ-toksia %s ms, %s MB.\n\n",
			3*cfg.runs, msCell(floor.parley), mbCell(floor.parley), msCell(floor.peer), mbCell(floor.peer))
	}
	fmt.Fprintln(w, "| instance | task | arg | Parley ms | μ-toksia ms | speedup | Parley RSS MB | μ-toksia RSS MB | Parley answer | μ-toksia answer |")
	fmt.Fprintln(w, "|---|---|---|--:|--:|--:|--:|--:|---|---|")
	byTask, byInstance := map[string][]float64{}, map[string][]float64{}
	var all, goal []float64
	var instances []string
	for _, r := range rows {
		speed := "–"
		if ok(r.parley) && ok(r.peer) {
			s := r.peer.ms / r.parley.ms
			speed = fmt.Sprintf("%.2f", s)
			byTask[r.task] = append(byTask[r.task], s)
			if len(byInstance[r.in.name]) == 0 {
				instances = append(instances, r.in.name)
			}
			byInstance[r.in.name] = append(byInstance[r.in.name], s)
			all = append(all, s)
			if slices.Contains(goalTasks(), r.task) {
				goal = append(goal, s)
			}
		}
		pv, qv := r.parley.verdict, r.peer.verdict
		if pv == vUnknown && qv == vUnknown && !strings.HasPrefix(r.task, "SE-") {
			// No reference: say whether the two solvers agree.
			if r.parley.answer == r.peer.answer {
				pv, qv = "? (agree)", "? (agree)"
			} else {
				pv, qv = "? DIFFER", "? DIFFER"
			}
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.in.name, r.task, r.arg,
			msCell(r.parley), msCell(r.peer), speed, mbCell(r.parley), mbCell(r.peer), pv, qv)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Geometric mean of the speedup per task (cases both answered):")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| task | cases | geomean speedup |")
	fmt.Fprintln(w, "|---|--:|--:|")
	for _, task := range cfg.tasks {
		if s := byTask[task]; len(s) > 0 {
			fmt.Fprintf(w, "| %s | %d | %.2f |\n", task, len(s), geomean(s))
		}
	}
	if len(goal) > 0 && len(goal) < len(all) {
		fmt.Fprintf(w, "| %s | %d | %.2f |\n", strings.Join(goalTasks(), ", "), len(goal), geomean(goal))
	}
	if len(all) > 0 {
		fmt.Fprintf(w, "| all | %d | %.2f |\n", len(all), geomean(all))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Per instance (all tasks both answered):")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| instance | cases | geomean speedup |")
	fmt.Fprintln(w, "|---|--:|--:|")
	for _, in := range instances {
		fmt.Fprintf(w, "| %s | %d | %.2f |\n", in, len(byInstance[in]), geomean(byInstance[in]))
	}
	fmt.Fprintln(w)
	if small.cases > 0 {
		fmt.Fprintf(w, "Small instances (full reference lists), %d questions: Parley %s; μ-toksia %s.\n",
			small.cases, verdicts(small.parley), verdicts(small.peer))
		for _, b := range small.parleyBad {
			fmt.Fprintln(w, "- Parley:", b)
		}
		for _, b := range small.peerBad {
			fmt.Fprintln(w, "- μ-toksia:", b)
		}
	}
	if cfg.random != "" {
		fmt.Fprintf(w, "\nAnswers (no reference: judged against the other solver): %s = DC/DS the same answer, SE-ST both NO or both an extension and this one\n", vAgree)
		fmt.Fprintf(w, "stable; %s = SE-PR an extension that is complete (maximality unchecked); %s = the answers differ; %s = the extension fails the definition.\n", vPartial, vDisagree, vWrong)
		return
	}
	fmt.Fprintf(w, "\nAnswers: %s = matches the reference; %s = meets the definition checked (complete), maximality unchecked; %s = no reference.\n", vOK, vPartial, vUnknown)
}

func ok(r result) bool { return r.verdict != vNA && r.verdict != vTimeout && r.verdict != vError }

func msCell(r result) string {
	if !ok(r) {
		return r.verdict
	}
	return fmt.Sprintf("%.1f", r.ms)
}

func mbCell(r result) string {
	if r.rssKB == 0 {
		return "–"
	}
	if r.rssMax {
		return fmt.Sprintf("≤ %.1f", float64(r.rssKB)/1024)
	}
	return fmt.Sprintf("%.1f", float64(r.rssKB)/1024)
}

func verdicts(m map[string]int) string {
	var parts []string
	for _, v := range []string{vOK, vPartial, vUnknown, vWrong, vTimeout, vError, vNA} {
		if m[v] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", m[v], v))
		}
	}
	return strings.Join(parts, ", ")
}

func geomean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += math.Log(x)
	}
	return math.Exp(s / float64(len(xs)))
}
