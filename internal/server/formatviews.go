package server

import (
	"fmt"
	"html/template"
	"math"
	"regexp"
	"strings"
	"sync"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/textsafe"
)

// argMap is a debate's argument map (debate.ArgumentMap, of a format
// that builds one: formal), drawn as SVG: a column for each side (formal's
// PRO on the left, OPP on the right, the moderator's in between); attacks
// in red, supports in green; each node's fill shows its score.
type argMap struct {
	Width, Height int
	Columns       []mapColumn
	Nodes         []mapNode
	Edges         []mapEdge
}

type mapColumn struct {
	Label string
	X     int
}

type mapNode struct {
	ID, Side, Text, Class string
	X, Y                  int
	Score                 float64
	Opacity               string
}

type mapEdge struct {
	X1, Y1, X2, Y2 int
	Kind           string // attack, support
}

const (
	mapTop   = 50
	mapStep  = 76
	mapWidth = 640
	// mapMargin is the distance of the outer columns' centres from the
	// map's edges.
	mapMargin = 110
)

// argumentMapper is implemented by a format whose debates build a graph of
// arguments (formal): the debate's page draws it.
type argumentMapper interface {
	ArgumentMap(*debate.State) (*debate.ArgumentMap, error)
}

// drawMap lays out a debate's argument map; nil for a format that builds
// none, and before any argument.
func drawMap(format debate.Format, st *debate.State) *argMap {
	am, ok := format.(argumentMapper)
	if !ok {
		return nil
	}
	res, err := am.ArgumentMap(st)
	if err != nil || res == nil || len(res.Arguments) == 0 || len(res.Sides) == 0 {
		return nil
	}
	m := &argMap{Width: mapWidth}
	n := len(res.Sides)
	for i, side := range res.Sides {
		x := mapWidth / 2
		if n > 1 {
			x = mapMargin + i*(mapWidth-2*mapMargin)/(n-1)
		}
		m.Columns = append(m.Columns, mapColumn{Label: textsafe.Clean(side), X: x})
	}
	at := map[string]int{}
	rows := map[int]int{}
	for _, a := range res.Arguments {
		// An argument of no side the map names goes in the middle.
		col := n / 2
		for i, side := range res.Sides {
			if strings.EqualFold(a.Side, side) {
				col = i
			}
		}
		x := m.Columns[col].X
		y := mapTop + rows[col]*mapStep
		rows[col]++
		at[a.ID] = len(m.Nodes)
		text := textsafe.Clean(a.Text)
		if a.Retracted {
			text += " (retracted)"
		}
		m.Nodes = append(m.Nodes, mapNode{ID: textsafe.Clean(a.ID), Side: textsafe.Clean(a.Side), Text: text, Class: strings.ToLower(m.Columns[col].Label),
			X: x, Y: y, Score: a.Score, Opacity: fmt.Sprintf("%.2f", 0.15+0.85*clamp01(a.Score))})
		m.Height = max(m.Height, y+mapStep)
	}
	for _, r := range res.Relations {
		from, ok1 := at[r.From]
		to, ok2 := at[r.To]
		if !ok1 || !ok2 {
			continue
		}
		kind := "attack"
		if r.Support {
			kind = "support"
		}
		a, b := m.Nodes[from], m.Nodes[to]
		// Stop the line at the target's rim, where the arrow head goes.
		x1, y1 := rim(b.X, b.Y, a.X, a.Y, 24)
		x2, y2 := rim(a.X, a.Y, b.X, b.Y, 26)
		m.Edges = append(m.Edges, mapEdge{X1: x1, Y1: y1, X2: x2, Y2: y2, Kind: kind})
	}
	return m
}

func clamp01(f float64) float64 { return min(1, max(0, f)) }

// rim is the point at distance r from (x2, y2) towards (x1, y1).
func rim(x1, y1, x2, y2, r int) (int, int) {
	dx, dy := float64(x2-x1), float64(y2-y1)
	d := dx*dx + dy*dy
	if d == 0 {
		return x2, y2
	}
	f := float64(r) / math.Sqrt(d)
	return x2 - int(dx*f), y2 - int(dy*f)
}

// accession is an SEC accession number as filings print it.
var accession = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b(\d{10})-(\d{2})-(\d{6})\b`) })

// linkAccessions turns the accession numbers of a bullbear document into
// links to the filing's index on the SEC's site, outside code and existing
// links. cik is the company's.
func linkAccessions(md, cik string) string {
	cik = strings.TrimLeft(cik, "0")
	if cik == "" {
		return md
	}
	var b strings.Builder
	last := 0
	for _, m := range accession().FindAllStringSubmatchIndex(md, -1) {
		start, end := m[0], m[1]
		prev := byte(' ')
		if start > 0 {
			prev = md[start-1]
		}
		next := byte(' ')
		if end < len(md) {
			next = md[end]
		}
		// Inside a URL, a link's text or code already: leave it.
		if prev == '/' || prev == '[' || prev == '`' || next == '-' || next == ']' || next == '`' {
			continue
		}
		acc := md[start:end]
		b.WriteString(md[last:start])
		fmt.Fprintf(&b, "[%s](https://www.sec.gov/Archives/edgar/data/%s/%s/%s-index.htm)", acc, cik, strings.ReplaceAll(acc, "-", ""), acc)
		last = end
	}
	b.WriteString(md[last:])
	return b.String()
}

// svgMap renders the argument map; the template escapes every text.
var svgMap = template.Must(template.New("map").Parse(`<svg class="argmap" viewBox="0 0 {{.Width}} {{.Height}}" role="img" aria-label="Argument map">
<defs><marker id="arrow-attack" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" class="attack"/></marker>
<marker id="arrow-support" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" class="support"/></marker></defs>
{{range .Columns}}<text x="{{.X}}" y="20" class="col">{{.Label}}</text>{{end}}
{{range .Edges}}<line x1="{{.X1}}" y1="{{.Y1}}" x2="{{.X2}}" y2="{{.Y2}}" class="edge {{.Kind}}" marker-end="url(#arrow-{{.Kind}})"/>
{{end}}{{range .Nodes}}<g class="node {{.Class}}"><title>{{.ID}} ({{.Side}}, score {{printf "%.2f" .Score}}): {{.Text}}</title>
<circle cx="{{.X}}" cy="{{.Y}}" r="24" fill-opacity="{{.Opacity}}"/><text x="{{.X}}" y="{{.Y}}" dy="4">{{.ID}}</text><text x="{{.X}}" y="{{.Y}}" dx="30" dy="4" class="score">{{printf "%.2f" .Score}}</text></g>
{{end}}</svg>`))

func (m *argMap) SVG() template.HTML {
	var b strings.Builder
	if err := svgMap.Execute(&b, m); err != nil {
		return ""
	}
	return template.HTML(b.String()) // executed by html/template: every text escaped
}
