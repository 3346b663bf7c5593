package modelserver

import (
	"fmt"
	"strings"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The naive persona (Config.Naive) also judges by what the screen seems
// to say, as weaker models do: the first switch whose words start with
// the name is that switch ("Bluetooth tethering" for Bluetooth), and an
// item to delete that the screen does not show is gone, though the list
// goes on below the screen's edge. The checks behind done must not follow
// it (docs/design.md#verification-and-honest-status).

// naiveSwitch is the first switch whose text or description starts with
// the words of name.
func (c *solver) naiveSwitch(name string) *uitree.Listed {
	for i, e := range c.obs.Elems {
		if e.Checkable && (hasWordPrefix(e.Text, name) || hasWordPrefix(e.Desc, name)) {
			return &c.obs.Elems[i]
		}
	}
	return nil
}

// hasWordPrefix reports whether s starts with the words of name and goes on.
func hasWordPrefix(s, name string) bool {
	return len(s) > len(name) && strings.EqualFold(s[:len(name)], name) && s[len(name)] == ' '
}

// naiveGone finishes a todo that deletes a note the Notes list on the
// screen does not show, saying it is deleted.
func (c *solver) naiveGone(task string) (step, bool) {
	t := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(task), ".。!！"))
	if !c.naive || !exDeleteRe.MatchString(t) {
		return step{}, false
	}
	m := exNoteTitleRe.FindStringSubmatch(t)
	if m == nil {
		return step{}, false
	}
	title := unquote(m[1])
	if st, ok := c.ensureApp("Notes"); ok {
		return st, true
	}
	if c.noteNewButton() == nil || c.byText(title) != nil {
		return step{}, false
	}
	return finish(fmt.Sprintf("The note %q is deleted", title),
		fmt.Sprintf("The notes list does not show %q, so it is gone.", title)), true
}
