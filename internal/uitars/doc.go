// Package uitars speaks UI-TARS's executor protocol (docs/models.md#ui-tars):
// the mobile prompt with its action space, the newest screenshot, earlier
// answers replayed as written, and answers of the form
// "Thought: …\nAction: click(start_box='(x,y)')" read into the same
// actions as the other protocols, their points mapped from the model's
// coordinate space (UI-TARS-1.5: absolute pixels of the image as its
// processor resized it; UI-TARS v1: the 0-1000 grid of its box tokens).
package uitars
