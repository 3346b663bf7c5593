package activities

import (
	"context"
	"fmt"

	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/probe"
	"github.com/phoneflow/phoneflow/internal/uitree"
	"github.com/phoneflow/phoneflow/internal/verify"
)

// Probe looks for an element on the phone past the edge of the screen,
// read-only: it scrolls the screen's longest list and back, and never taps
// (docs/design.md §9). Verification and the look before a commit call it
// from inside their activities; its swipes are not executor steps and are
// not in the action journal.
func (a *Activities) Probe(ctx context.Context, serial string, m probe.Match, lim probe.Limits) (probe.Result, error) {
	d, err := a.device(ctx, serial)
	if err != nil {
		return probe.Result{}, err
	}
	r, err := probe.Find(ctx, d, m, lim)
	if err != nil {
		return r, deviceError("probe", err)
	}
	return r, nil
}

// visible reports whether an element on the screen matches m.
func visible(elems []uitree.Element, m probe.Match) bool {
	for _, e := range elems {
		if m(e) && e.Bounds.Y2 > e.Bounds.Y1 {
			return true
		}
	}
	return false
}

// verifyByProbe decides a finished todo that creates an item (a note, an
// alarm, a message) whose row is not on the final screen: a probe through
// the screen's list finds it, and the todo is done. ok is false when the
// todo creates no item this check knows, the final screen is not where
// the item is listed, the item is on the screen already (the usual checks
// judge it), or the probe did not find it.
func (a *Activities) verifyByProbe(ctx context.Context, in VerifyInput, s verify.Screen) (VerifyResult, bool) {
	e, ok := verify.Expect(in.Task)
	if !ok || in.Serial == "" || a.Devices == nil || s.Sensitive || !e.Shows(s.App, s.AppPackage, s.Elements) || visible(s.Elements, e.Match) {
		return VerifyResult{}, false
	}
	r, err := a.probeFenced(ctx, in, e.Match)
	if err != nil {
		a.logger(ctx).Warn("probe failed; the verifier judges the final screen alone", "serial", in.Serial, "error", err)
		return VerifyResult{}, false
	}
	if !r.Found {
		return VerifyResult{}, false
	}
	return VerifyResult{Status: verify.Done, By: verify.ByProbe, Probes: r.Swipes,
		Evidence: e.Describe + " is on the phone: " + r.Evidence}, true
}

// probeMissing looks past the final screen's edge for what an unmet
// element_exists or row_shows postcondition wants (docs/design.md §9): a row the list
// shows below the screen is on the phone all the same. A found element
// turns the check into held, with the probe's evidence; anything else is
// left as it was. An element_absent that held on the screen is looked for
// the same way (probeAbsent). It returns the swipes sent. A probe cut off by the
// deadline (the Step's verification giving up in time for its think, the
// activity's own timeout) looked at part of the list only: whether the
// check holds is not known, so it gives an error and no verdict, never a
// failed check (a failed todo makes the replanner run it again).
func (a *Activities) probeMissing(ctx context.Context, in VerifyInput, s verify.Screen, rs []postcond.Result) (int, error) {
	if in.Serial == "" || a.Devices == nil || s.Sensitive {
		return 0, nil
	}
	swipes := 0
	for i, r := range rs {
		var m probe.Match
		c := r.Check
		switch {
		case c.Kind == postcond.ElementAbsent && r.Held:
			n, err := a.probeAbsent(ctx, in, &rs[i])
			if swipes += n; err != nil {
				return swipes, err
			}
			continue
		case r.Held:
			continue
		case c.Kind == postcond.ElementExists:
			// A field's text is typed, not saved (postcond's element_exists).
			m = func(e uitree.Element) bool { return !e.IsField() && postcond.Shows(e, c.Text) }
		case c.Kind == postcond.RowShows:
			m = func(e uitree.Element) bool { return postcond.ShowsRow(e, c.Row, c.Shows) }
		default:
			continue
		}
		p, err := a.probeFenced(ctx, in, m)
		swipes += p.Swipes
		if err != nil && ctx.Err() != nil {
			return swipes, fmt.Errorf("the probe for %s was cut off (%v) after %d swipes: whether it holds is not known: %w", c, ctx.Err(), p.Swipes, err)
		}
		if err != nil {
			a.logger(ctx).Warn("probe failed; the postcondition is judged on the final screen alone", "serial", in.Serial, "error", err)
			continue
		}
		if p.Found && p.Restored {
			rs[i].Held, rs[i].Evidence = true, fmt.Sprintf("%s, past the screen's edge: %s", c, p.Evidence)
		}
	}
	return swipes, nil
}

// probeAbsent judges an element_absent check that held on the final
// screen past the screen's edge (docs/design.md §9): a deleted note's
// row just below the edge is still on the phone. The check stays held
// only when the probe saw the whole list without finding it; found, or
// not looked through to both ends (a probe that failed or ran out of
// swipes), it does not hold. It returns the swipes sent.
func (a *Activities) probeAbsent(ctx context.Context, in VerifyInput, r *postcond.Result) (int, error) {
	text := r.Check.Text
	p, err := a.probeFenced(ctx, in, func(e uitree.Element) bool { return postcond.Shows(e, text) })
	switch {
	case err != nil && ctx.Err() != nil:
		// Cut off by the deadline: no verdict, as probeMissing says.
		return p.Swipes, fmt.Errorf("the probe for %s was cut off (%v) after %d swipes: whether it holds is not known: %w", r.Check, ctx.Err(), p.Swipes, err)
	case err != nil:
		r.Held, r.Evidence = false, fmt.Sprintf("%q is not on the final screen, but the list past its edge could not be looked through (%v), so it is not shown to be gone", text, err)
	case p.Found:
		r.Held, r.Evidence = false, fmt.Sprintf("%q is still on the phone, past the screen's edge: %s", text, p.Evidence)
	case !p.Complete:
		r.Held, r.Evidence = false, fmt.Sprintf("%q is not on the final screen, but %s, so it is not shown to be gone", text, p.Evidence)
	default:
		r.Evidence = fmt.Sprintf("%s; past the screen's edge: %s", r.Evidence, p.Evidence)
	}
	return p.Swipes, nil
}

// probeFenced is Probe for a verification: the swipes go to the phone
// only while the goal still holds it (docs/design.md §5). A goal whose
// phone was granted to another goal after it gets the lease error and
// sends nothing; the caller judges as for a probe that failed (an
// element_exists stays unmet, an element_absent is not shown to be
// gone), never as held.
func (a *Activities) probeFenced(ctx context.Context, in VerifyInput, m probe.Match) (probe.Result, error) {
	if a.Journal != nil && in.LeaseToken != 0 {
		d, err := a.device(ctx, in.Serial)
		if err != nil {
			return probe.Result{}, err
		}
		_, unlock, err := a.fenced(ctx, d, in.GoalID, in.LeaseToken)
		if err != nil {
			return probe.Result{}, err
		}
		unlock()
	}
	return a.Probe(ctx, in.Serial, m, probe.Limits{})
}
