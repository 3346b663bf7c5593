package activities

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"go.temporal.io/sdk/temporal"
)

// NamePersonAct is the activity that performs a person's action on a
// goal's phone (docs/design.md §7, taking over from the browser).
const NamePersonAct = "PersonAct"

// Kinds of PersonAction.
const (
	PersonTap   = "tap"
	PersonSwipe = "swipe"
	PersonType  = "type"
	PersonBack  = "back"
	PersonHome  = "home"
)

// maxPersonChars bounds typed text (a password, a code, a name).
const maxPersonChars = 512

// PersonAction is one input a person gives the phone from the step viewer,
// in the phone's pixels. Typed text is never part of it: Sealed is the
// handle the viewer's host keeps it under (internal/takeover) and Chars
// how many characters it has, so history says "typed 8 characters" and
// nothing more.
type PersonAction struct {
	Kind   string `json:"kind"`
	X      int    `json:"x,omitempty"`
	Y      int    `json:"y,omitempty"`
	X2     int    `json:"x2,omitempty"`
	Y2     int    `json:"y2,omitempty"`
	Chars  int    `json:"chars,omitempty"`
	Sealed string `json:"sealed,omitempty"`
}

// Valid checks what can be checked without the phone.
func (a PersonAction) Valid() error {
	switch a.Kind {
	case PersonTap:
		if a.X < 0 || a.Y < 0 {
			return fmt.Errorf("tap at (%d, %d) is off the screen: give pixel coordinates from the top-left corner", a.X, a.Y)
		}
	case PersonSwipe:
		if a.X < 0 || a.Y < 0 || a.X2 < 0 || a.Y2 < 0 {
			return fmt.Errorf("swipe from (%d, %d) to (%d, %d) is off the screen: give pixel coordinates from the top-left corner", a.X, a.Y, a.X2, a.Y2)
		}
	case PersonType:
		if a.Sealed == "" || a.Chars <= 0 {
			return errors.New("type needs the text: type something in the step viewer's text box")
		}
		if a.Chars > maxPersonChars {
			return fmt.Errorf("type: %d characters is over the %d-character limit", a.Chars, maxPersonChars)
		}
	case PersonBack, PersonHome:
	default:
		return fmt.Errorf("%q is not an action a person can take: use tap, swipe, type, back or home", a.Kind)
	}
	return nil
}

// Describe says what the action does, typed text redacted.
func (a PersonAction) Describe() string {
	switch a.Kind {
	case PersonTap:
		return fmt.Sprintf("tapped (%d, %d)", a.X, a.Y)
	case PersonSwipe:
		return fmt.Sprintf("swiped from (%d, %d) to (%d, %d)", a.X, a.Y, a.X2, a.Y2)
	case PersonType:
		if a.Chars == 1 {
			return "typed 1 character"
		}
		return fmt.Sprintf("typed %d characters", a.Chars)
	case PersonBack:
		return "pressed Back"
	case PersonHome:
		return "pressed Home"
	}
	return a.Kind
}

// PersonActInput runs a person's action on Serial for GoalID, under the
// goal's lease token (docs/design.md §5).
type PersonActInput struct {
	Serial     string       `json:"serial"`
	GoalID     string       `json:"goal_id"`
	LeaseToken int64        `json:"lease_token,omitempty"`
	Action     PersonAction `json:"action"`
}

// PersonActResult is what the action did, as history and the step viewer
// show it: By is always "person".
type PersonActResult struct {
	By  string `json:"by"`
	Did string `json:"did"`
}

// ErrTypePersonAction is a person's action the phone cannot take as given
// (off the screen, text gone): not retried.
const ErrTypePersonAction = "PersonAction"

// PersonAct performs a person's action on the phone. It takes the phone's
// journal lock and checks the lease fence like the executor's actions, so
// it never lands between an action's intent and its result nor on a phone
// another goal was granted since. Typed text is taken out of the viewer's
// store here (which deletes it) and goes to the phone only.
func (a *Activities) PersonAct(ctx context.Context, in PersonActInput) (PersonActResult, error) {
	act := in.Action
	if err := act.Valid(); err != nil {
		return PersonActResult{}, temporal.NewNonRetryableApplicationError(err.Error(), ErrTypePersonAction, nil)
	}
	d, err := a.device(ctx, in.Serial)
	if err != nil {
		return PersonActResult{}, err
	}
	if a.Journal != nil {
		_, unlock, err := a.fenced(ctx, d, in.GoalID, in.LeaseToken)
		if err != nil {
			return PersonActResult{}, err
		}
		defer unlock()
	}
	refuse := func(msg string) (PersonActResult, error) {
		return PersonActResult{}, temporal.NewNonRetryableApplicationError(msg, ErrTypePersonAction, nil)
	}
	switch act.Kind {
	case PersonTap, PersonSwipe:
		w, h, err := d.ScreenSize(ctx)
		if err != nil {
			return PersonActResult{}, deviceError("screen size", err)
		}
		for _, p := range [][2]int{{act.X, act.Y}, {act.X2, act.Y2}} {
			if p[0] >= w || p[1] >= h {
				return refuse(fmt.Sprintf("the person %s: (%d, %d) is off the %dx%d screen", act.Describe(), p[0], p[1], w, h))
			}
		}
		if act.Kind == PersonTap {
			err = d.Tap(ctx, act.X, act.Y)
		} else {
			err = d.Swipe(ctx, act.X, act.Y, act.X2, act.Y2, 0)
		}
		if err != nil {
			return PersonActResult{}, deviceError(act.Kind, err)
		}
	case PersonBack:
		if err := d.Back(ctx); err != nil {
			return PersonActResult{}, deviceError("back", err)
		}
	case PersonHome:
		if err := d.Home(ctx); err != nil {
			return PersonActResult{}, deviceError("home", err)
		}
	case PersonType:
		if a.TakeOver == nil {
			return refuse("this worker keeps no typed text: type on the phone's own host's step viewer")
		}
		text, err := a.TakeOver.Take(act.Sealed)
		if err != nil {
			return refuse(err.Error())
		}
		if n := utf8.RuneCountInString(text); n != act.Chars {
			return refuse(fmt.Sprintf("the typed text has %d characters, the action says %d: type it again", n, act.Chars))
		}
		if err := d.Type(ctx, text); err != nil {
			// The device's error may quote what it sent: history gets
			// it without the text.
			return PersonActResult{}, deviceError("type", errors.New(strings.ReplaceAll(err.Error(), text, "[typed text]")))
		}
	}
	return PersonActResult{By: "person", Did: act.Describe()}, nil
}
