package app

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"unicode/utf8"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/sealed"
	"github.com/phoneflow/phoneflow/internal/takeover"
	"github.com/phoneflow/phoneflow/internal/viewer"
	"github.com/phoneflow/phoneflow/workflows"
)

// TypedStore is where this host keeps what a person types from the step
// viewer until the phone's PersonAct types it (docs/design.md §7): under
// data_dir, like the screenshots the viewer serves.
func TypedStore(cfg config.Config) *takeover.Store {
	return &takeover.Store{Dir: filepath.Join(cfg.DataDir, "typed")}
}

// SealedStore is where this host keeps, encrypted, the text the executor
// types into a password field or onto a secure screen
// (docs/design.md#secrets-typed-by-the-executor): under data_dir, with a
// key of this host's.
func SealedStore(cfg config.Config) *sealed.Store {
	return &sealed.Store{Dir: filepath.Join(cfg.DataDir, "sealed")}
}

// takeOver is the step viewer's take-over on this host: the screen read
// from the host's ADB server, actions and answers sent to the goal.
type takeOver struct {
	ctl   *goalctl.Client
	pool  activities.DevicePool
	typed *takeover.Store
}

var _ viewer.TakeOver = takeOver{}

// takeOverAnswer is what Continue tells a goal whose question asked for
// work on the phone (a Take_over, a locked phone) once the person did it.
const takeOverAnswer = "I did it myself on the phone (taken over from the step viewer). Look at the screen and carry on."

func (t takeOver) Screen(ctx context.Context, id string) ([]byte, string, error) {
	st, err := t.ctl.Status(ctx, id)
	if err != nil {
		return nil, "", err
	}
	d, err := t.pool.Get(ctx, st.Device)
	if err != nil {
		return nil, "", fmt.Errorf("phone %s is not reachable from this host's ADB server: open the step viewer of the worker the phone is plugged into: %w", st.Device, err)
	}
	s, err := d.Screenshot(ctx)
	if err != nil {
		return nil, "", fmt.Errorf("screenshot of %s: %w", st.Device, err)
	}
	if !s.Sensitive {
		return s.PNG, "image/png", nil
	}
	// A secure screen (a bank's sign-in) cannot be captured, but its
	// elements can be listed: the person sees where to tap.
	els, err := d.UITree(ctx)
	if err != nil {
		return nil, "", fmt.Errorf("the app on %s forbids screenshots and its elements cannot be listed (%v): act on the phone itself", st.Device, err)
	}
	w, h := s.Width, s.Height
	if w <= 0 || h <= 0 {
		if w, h, err = d.ScreenSize(ctx); err != nil {
			return nil, "", fmt.Errorf("screen size of %s: %w", st.Device, err)
		}
	}
	return viewer.LayoutSVG(els, w, h), "image/svg+xml", nil
}

func (t takeOver) Act(ctx context.Context, id string, a workflows.PersonAction, text string) (string, error) {
	if a.Kind == activities.PersonType {
		if text == "" {
			return "", errors.New("type: the text is empty: type something first")
		}
		a.Chars = utf8.RuneCountInString(text)
		h, err := t.typed.Seal(text)
		if err != nil {
			return "", err
		}
		a.Sealed = h
		// Whatever happens to the update, the text does not outlive it.
		defer t.typed.Drop(h)
	} else if text != "" {
		return "", fmt.Errorf("%s takes no text: use type", a.Kind)
	}
	res, err := t.ctl.PersonAction(ctx, id, a)
	if err != nil {
		return "", err
	}
	return res.Did, nil
}

func (t takeOver) Continue(ctx context.Context, id string) (string, error) {
	st, err := t.ctl.Status(ctx, id)
	if err != nil {
		return "", err
	}
	switch ask := viewer.AskOf(st); ask.Kind {
	case viewer.AskApproval:
		return "approved", t.ctl.Approve(ctx, id, true, "approved after taking over from the step viewer", false)
	case viewer.AskTakeOver:
		return "answered", t.ctl.Clarify(ctx, id, takeOverAnswer, false)
	case viewer.AskQuestion:
		return "", fmt.Errorf("the goal asks %q: only your words answer it: type the answer and press Answer (or run `starter clarify %s \"…\"`)", ask.Text, id)
	case viewer.AskPaused:
		return "resumed", t.ctl.Send(ctx, id, workflows.SignalResume, nil, false)
	}
	return "", errors.New("the goal is not waiting for a person: nothing to continue")
}

func (t takeOver) Answer(ctx context.Context, id, text string) (string, error) {
	st, err := t.ctl.Status(ctx, id)
	if err != nil {
		return "", err
	}
	if st.PendingQuestion == "" {
		if st.PendingApproval != nil {
			return "", errors.New("the goal waits for an approval, not an answer: press Approve, or deny it with `starter deny " + id + "`")
		}
		return "", errors.New("the goal asks no question now: nothing to answer")
	}
	return "answered", t.ctl.Clarify(ctx, id, text, false)
}
