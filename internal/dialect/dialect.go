package dialect

import (
	"errors"
	"time"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/mobileuse"
	"github.com/phoneflow/phoneflow/internal/uitars"
)

// BuildMessages builds one executor request in cfg's protocol.
func BuildMessages(cfg autoglm.Config, in autoglm.StepInput, now time.Time) ([]llm.Message, error) {
	switch cfg.Protocol {
	case autoglm.ProtocolUITARS, autoglm.ProtocolMobileUse:
		if err := cfg.Validate(); err != nil {
			return nil, err
		}
		if cfg.Protocol == autoglm.ProtocolUITARS {
			return uitars.BuildMessages(cfg, in)
		}
		return mobileuse.BuildMessages(cfg, in)
	}
	return autoglm.BuildMessages(cfg, in, now)
}

// Frame is the coordinate frame of the answers to cfg's requests for a
// w x h screenshot.
func Frame(cfg autoglm.Config, w, h int) autoglm.Frame {
	switch cfg.Protocol {
	case autoglm.ProtocolUITARS:
		return uitars.Frame(cfg, w, h)
	case autoglm.ProtocolMobileUse:
		return mobileuse.Frame(cfg, w, h)
	}
	return autoglm.Frame{Relative: true}
}

// Parse reads an answer in protocol's grammar. An answer it cannot read is
// an *autoglm.ParseError, or a *WrongFamilyError when the answer is
// written in another family's grammar.
func Parse(protocol, raw string, f autoglm.Frame) (autoglm.Response, error) {
	var resp autoglm.Response
	var err error
	switch protocol {
	case autoglm.ProtocolUITARS:
		resp, err = uitars.Parse(raw, f)
	case autoglm.ProtocolMobileUse:
		resp, err = mobileuse.Parse(raw, f)
	default:
		resp, err = autoglm.Parse(raw)
	}
	if protocol == "" {
		protocol = autoglm.ProtocolPhoneflow
	}
	var pe *autoglm.ParseError
	if errors.As(err, &pe) {
		if fam := Family(raw); fam != "" && !reads(protocol, fam) {
			return resp, &WrongFamilyError{Protocol: protocol, Family: fam, Parse: pe}
		}
	}
	return resp, err
}
