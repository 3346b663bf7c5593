// Package probe looks for an element on a phone past the edge of the
// screen, read-only (docs/design.md §9): it reads the UI tree and, when
// the element is not on the screen, scrolls the screen's longest list
// to its start and then through to its end, a bounded number of swipes,
// reading the tree after each; then it scrolls back to where the list was.
// It never taps, types or presses a key: a swipe on a list is the only input
// it sends. Verification and the todo's look before a commit call it; its
// swipes are not the executor's steps.
package probe

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// Phone is what a probe needs of a device.
type Phone interface {
	UITree(ctx context.Context) ([]uitree.Element, error)
	// Swipe drags from (x1,y1) to (x2,y2); d == 0 picks a duration from
	// the distance.
	Swipe(ctx context.Context, x1, y1, x2, y2 int, d time.Duration) error
}

// Match reports whether an element is the one looked for.
type Match func(uitree.Element) bool

// Text matches an element whose text or description is s, ignoring case
// and surrounding space.
func Text(s string) Match {
	s = strings.TrimSpace(s)
	return func(e uitree.Element) bool {
		return s != "" && (strings.EqualFold(strings.TrimSpace(e.Text), s) || strings.EqualFold(strings.TrimSpace(e.Desc), s))
	}
}

// Prefix matches an element whose text starts with p (ignoring case) and
// contains every one of also.
func Prefix(p string, also ...string) Match {
	p = strings.ToLower(strings.TrimSpace(p))
	return func(e uitree.Element) bool {
		t := strings.ToLower(strings.TrimSpace(e.Text))
		if p == "" || !strings.HasPrefix(t, p) {
			return false
		}
		for _, a := range also {
			if !strings.Contains(t, strings.ToLower(a)) {
				return false
			}
		}
		return true
	}
}

// DefaultSwipes bounds a probe's swipes, restoring included, when Limits
// leaves it zero: half of them search, which is enough for a list of
// about 190 note rows (docs/design.md §9).
const DefaultSwipes = 100

// Limits bound one probe.
type Limits struct {
	Swipes int // swipes in all, the way back included; 0 = DefaultSwipes
}

// Result is what a probe found.
type Result struct {
	Found   bool
	Element uitree.Element // the match, with its bounds where it was seen
	// Swipes is how many swipes the probe sent, the way back included.
	Swipes int
	// Scrolled is true when the match was off the screen at the start.
	Scrolled bool
	// Restored is true when the list is back where it was (or was never
	// moved).
	Restored bool
	// Evidence says what was seen, for a verdict or a refusal.
	Evidence string
	// Complete is true when nothing was found and the probe saw the whole
	// list, both its ends (or nothing on the screen scrolls): only then
	// does a probe show that something is not on the phone.
	Complete bool
}

// Find looks for an element matching m: on the screen, then through the
// longest scrollable list on it.
func Find(ctx context.Context, ph Phone, m Match, lim Limits) (Result, error) {
	budget := lim.Swipes
	if budget <= 0 {
		budget = DefaultSwipes
	}
	start, err := ph.UITree(ctx)
	if err != nil {
		return Result{}, fmt.Errorf("probe: read the screen: %w", err)
	}
	if e, ok := first(start, m); ok {
		return Result{Found: true, Element: e, Restored: true, Evidence: fmt.Sprintf("%q is on the screen", label(e))}, nil
	}
	list, ok := longestList(start)
	if !ok {
		return Result{Restored: true, Complete: true, Evidence: "it is not on the screen and nothing on the screen scrolls"}, nil
	}
	p := &prober{ph: ph, list: list.Bounds, budget: budget}
	res := Result{Restored: true}
	sig0 := p.signature(start)
	// Towards the start first (a list mostly rests there, and then one
	// swipe shows it), then through to the end. Half the budget is kept
	// for the way back.
	search := budget / 2
	prev := sig0
	ends := 0 // the list's ends the search reached
	for _, forward := range []bool{false, true} {
		for p.swipes < search {
			tree, err := p.swipe(ctx, forward)
			if err != nil {
				return res, err
			}
			if e, ok := first(tree, m); ok {
				res.Found, res.Element, res.Scrolled = true, e, true
				break
			}
			sig := p.signature(tree)
			if sig == prev {
				p.undo(forward) // the list did not move: its end
				ends++
				break
			}
			prev = sig
		}
		if res.Found {
			break
		}
	}
	where := fmt.Sprintf("the list at %s", list.Bounds)
	if res.Found {
		res.Evidence = fmt.Sprintf("%q is in %s, found by scrolling", label(res.Element), where)
	} else {
		res.Complete = ends == 2
		res.Evidence = fmt.Sprintf("it is not in %s (scrolled %d times through it)", where, p.swipes)
		if !res.Complete {
			res.Evidence = fmt.Sprintf("it is not in the part of %s seen in %d swipes; the probe's budget ended before the list did", where, p.swipes)
		}
	}
	// Back to where the list was, as far as the budget goes.
	for p.moved != 0 && p.swipes < budget {
		if _, err := p.swipe(ctx, p.moved < 0); err != nil {
			return res, err
		}
	}
	if p.swipes > 0 {
		now, err := ph.UITree(ctx)
		if err != nil {
			return res, fmt.Errorf("probe: read the screen: %w", err)
		}
		if p.signature(now) != sig0 && p.swipes < budget {
			// A swipe that hit the end of the list moved it less than the
			// others: one more drag by what a row is off puts it back.
			if now, err = p.align(ctx, start, now); err != nil {
				return res, err
			}
		}
		res.Restored = p.signature(now) == sig0
	}
	res.Swipes = p.swipes
	return res, nil
}

// prober scrolls one list and keeps count of where it is.
type prober struct {
	ph     Phone
	list   uitree.Bounds
	budget int
	swipes int
	moved  int // swipes towards the end minus swipes towards the start
}

// swipe scrolls the list half its height: forward reveals what is below.
func (p *prober) swipe(ctx context.Context, forward bool) ([]uitree.Element, error) {
	x := (p.list.X1 + p.list.X2) / 2
	h := p.list.Y2 - p.list.Y1
	low, high := p.list.Y1+h/4, p.list.Y2-h/4
	y1, y2 := high, low
	if !forward {
		y1, y2 = low, high
	}
	p.swipes++
	if forward {
		p.moved++
	} else {
		p.moved--
	}
	return p.drag(ctx, x, y1, x, y2)
}

// Dragger is a Phone that can also drag without waiting for the screen
// to settle; a probe then waits for the list itself.
type Dragger interface {
	DragUnsettled(ctx context.Context, x1, y1, x2, y2 int, d time.Duration) error
}

// settleReads bounds the tree reads after an unsettled drag.
const settleReads = 10

// drag scrolls the list and returns the screen once the list stopped
// moving. A phone that can drag without its settle wait (screen captures
// until two match, the cost of every other input) does so, and the tree
// is read until two reads in a row show the list alike: a probe looks at
// the tree only, so a still tree is what it waits for.
func (p *prober) drag(ctx context.Context, x1, y1, x2, y2 int) ([]uitree.Element, error) {
	dr, ok := p.ph.(Dragger)
	if !ok {
		if err := p.ph.Swipe(ctx, x1, y1, x2, y2, 0); err != nil {
			return nil, fmt.Errorf("probe: scroll: %w", err)
		}
		return p.read(ctx)
	}
	if err := dr.DragUnsettled(ctx, x1, y1, x2, y2, 0); err != nil {
		return nil, fmt.Errorf("probe: scroll: %w", err)
	}
	tree, err := p.read(ctx)
	if err != nil {
		return nil, err
	}
	sig := p.signature(tree)
	for range settleReads - 1 {
		next, err := p.read(ctx)
		if err != nil {
			return nil, err
		}
		s := p.signature(next)
		if s == sig {
			return next, nil
		}
		tree, sig = next, s
	}
	return tree, nil
}

func (p *prober) read(ctx context.Context) ([]uitree.Element, error) {
	tree, err := p.ph.UITree(ctx)
	if err != nil {
		return nil, fmt.Errorf("probe: read the screen: %w", err)
	}
	return tree, nil
}

// align drags the list by how far a row seen both at the start and now
// is from its place at the start, and returns the screen after it.
func (p *prober) align(ctx context.Context, start, now []uitree.Element) ([]uitree.Element, error) {
	at := map[string]int{}
	for _, e := range p.whole(start) {
		at[e.Text] = e.Bounds.Y1
	}
	for _, e := range p.whole(now) {
		y0, ok := at[e.Text]
		if !ok || y0 == e.Bounds.Y1 {
			continue
		}
		x := (p.list.X1 + p.list.X2) / 2
		from := (p.list.Y1 + p.list.Y2) / 2
		to := from + y0 - e.Bounds.Y1
		if to <= p.list.Y1 || to >= p.list.Y2 {
			return now, nil
		}
		p.swipes++
		return p.drag(ctx, x, from, x, to)
	}
	return now, nil
}

// whole is the elements of tree wholly inside the list whose text appears
// once there.
func (p *prober) whole(tree []uitree.Element) []uitree.Element {
	n := map[string]int{}
	var in []uitree.Element
	for _, e := range tree {
		if e.Scrollable || e.Text == "" || e.Bounds.Y1 <= p.list.Y1 || e.Bounds.Y2 >= p.list.Y2 {
			continue
		}
		n[e.Text]++
		in = append(in, e)
	}
	out := in[:0]
	for _, e := range in {
		if n[e.Text] == 1 {
			out = append(out, e)
		}
	}
	return out
}

// undo takes back the count of a swipe that did not move the list.
func (p *prober) undo(forward bool) {
	if forward {
		p.moved--
	} else {
		p.moved++
	}
}

// signature is what the list shows: the text and place of every element
// inside it.
func (p *prober) signature(tree []uitree.Element) string {
	var b strings.Builder
	for _, e := range tree {
		if e.Scrollable || e.Bounds.Y1 < p.list.Y1 || e.Bounds.Y2 > p.list.Y2 || e.Bounds.X1 < p.list.X1 || e.Bounds.X2 > p.list.X2 {
			continue
		}
		fmt.Fprintf(&b, "%s|%s|%s|%t\n", e.Text, e.Desc, e.Bounds, e.Checked)
	}
	return b.String()
}

func first(tree []uitree.Element, m Match) (uitree.Element, bool) {
	for _, e := range tree {
		if m(e) && e.Bounds.Y2 > e.Bounds.Y1 {
			return e, true
		}
	}
	return uitree.Element{}, false
}

// longestList is the scrollable element with the most height.
func longestList(tree []uitree.Element) (uitree.Element, bool) {
	var best uitree.Element
	ok := false
	for _, e := range tree {
		if e.Scrollable && (!ok || e.Bounds.Y2-e.Bounds.Y1 > best.Bounds.Y2-best.Bounds.Y1) {
			best, ok = e, true
		}
	}
	return best, ok && best.Bounds.Y2-best.Bounds.Y1 >= 200
}

func label(e uitree.Element) string {
	if e.Text != "" {
		return e.Text
	}
	return e.Desc
}
