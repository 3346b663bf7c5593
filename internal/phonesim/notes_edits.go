package phonesim

import "slices"

// When each note was last edited, for Google Keep's list order: Keep
// shows the most recently edited note at the top (docs/phones.md#skins).
// The notes themselves stay in the order they were made, which is what
// State reports and the classic Notes lists.

// editedNote records that note i was just saved with new content.
func (d *data) editedNote(i int) {
	for len(d.noteEdits) <= i {
		d.noteEdits = append(d.noteEdits, 0)
	}
	d.lastEdit++
	d.noteEdits[i] = d.lastEdit
}

// droppedNote forgets the edit of note i as it is removed, so the later
// notes keep theirs.
func (d *data) droppedNote(i int) {
	if i < len(d.noteEdits) {
		d.noteEdits = slices.Delete(d.noteEdits, i, i+1)
	}
}

// keepOrder is the notes' indices as Keep lists them: the most recently
// edited first, then the notes not edited on this phone (those it
// started with or was filled with), the latest made first.
func (d *data) keepOrder() []int {
	edit := func(i int) int {
		if i < len(d.noteEdits) {
			return d.noteEdits[i]
		}
		return 0
	}
	order := make([]int, len(d.Notes))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if ea, eb := edit(a), edit(b); ea != eb {
			return eb - ea
		}
		return b - a
	})
	return order
}
