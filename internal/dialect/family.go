package dialect

import (
	"regexp"
	"strings"

	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// Answer grammars: the families of GUI models.
const (
	FamilyAutoGLM   = "autoglm"    // do(action="Tap", element=[x,y]) / finish(message=...)
	FamilyUITARS    = "uitars"     // Thought: … Action: click(start_box='(x,y)')
	FamilyMobileUse = "mobile_use" // <tool_call>{"name": "mobile_use", …}</tool_call>
	FamilyToolCall  = "tool_call"  // a function call written as JSON text: {"name": …, "arguments": …}
)

var (
	uitarsCall = regexp.MustCompile(`(?m)(^|\s)Action:\s*(click|left_single|left_double|right_single|long_press|type|scroll|open_app|drag|press_home|press_back|press_enter|hotkey|wait|finished|call_user)\s*\(`)
	uitarsArg  = regexp.MustCompile(`start_box\s*=|<\|box_start\|>|<point>`)
	mobileUse  = regexp.MustCompile(`"name"\s*:\s*"mobile_use"`)
	jsonCall   = regexp.MustCompile(`\{\s*"name"\s*:\s*"[^"]+"\s*,\s*"arguments"\s*:`)
	glmCall    = regexp.MustCompile(`do\s*[(（]\s*action\s*[=＝]|finish\s*[(（]\s*message\s*[=＝]`)
)

// Family names the grammar an answer is written in, or "" when it shows
// none.
func Family(raw string) string {
	switch {
	case mobileUse.MatchString(raw):
		return FamilyMobileUse
	case uitarsCall.MatchString(raw) || uitarsArg.MatchString(raw):
		return FamilyUITARS
	case glmCall.MatchString(raw):
		return FamilyAutoGLM
	case strings.Contains(raw, "<tool_call>") || jsonCall.MatchString(raw):
		return FamilyToolCall
	}
	return ""
}

// reads reports whether protocol reads answers of family.
func reads(protocol, family string) bool {
	if protocol == "" {
		protocol = autoglm.ProtocolPhoneflow
	}
	switch family {
	case FamilyAutoGLM:
		return protocol == autoglm.ProtocolAutoGLM || protocol == autoglm.ProtocolPhoneflow
	case FamilyUITARS:
		return protocol == autoglm.ProtocolUITARS
	case FamilyMobileUse:
		return protocol == autoglm.ProtocolMobileUse
	case FamilyToolCall:
		return protocol == autoglm.ProtocolTools
	}
	return true
}

// Setting is the configuration that reads a family.
func Setting(family string) string {
	switch family {
	case FamilyAutoGLM:
		return "executor.protocol: autoglm (or phoneflow)"
	case FamilyUITARS:
		return "executor.protocol: uitars"
	case FamilyMobileUse:
		return "executor.protocol: mobile_use"
	}
	return "executor.protocol: tools, with an endpoint that returns native tool calls"
}

// familyName is how a message names a family.
func familyName(family string) string {
	switch family {
	case FamilyAutoGLM:
		return `AutoGLM's do(action=...)/finish(...) calls`
	case FamilyUITARS:
		return `UI-TARS's "Action: click(start_box=...)" calls`
	case FamilyMobileUse:
		return `Qwen-VL's mobile_use <tool_call> JSON`
	}
	return "a function call written as JSON text"
}

// WrongFamilyError is an answer written in a grammar the configured
// protocol does not read. Asking again cannot help: the model answers in
// its own words, so the fix is the setting.
type WrongFamilyError struct {
	Protocol, Family string
	Parse            *autoglm.ParseError // the reader's own refusal
}

// Error names the family, the protocol and the setting that reads it.
func (e *WrongFamilyError) Error() string {
	return "the executor answered in " + familyName(e.Family) + ", which executor.protocol " + e.Protocol +
		" does not read: set " + Setting(e.Family) + " for this model"
}

// Unwrap gives the reader's refusal.
func (e *WrongFamilyError) Unwrap() error { return e.Parse }
