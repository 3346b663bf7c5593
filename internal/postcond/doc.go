// Package postcond is the vocabulary in which the planner writes, before a
// todo runs, the end state the todo must leave on the phone, and the
// evaluator that checks it on the UI tree afterwards without any model
// (docs/design.md §9). A check names what a phone shows: the app in front,
// an element's text, a switch's state, a field's value, a list row, the last
// message sent in a conversation, or, for a todo that reads, that the
// answer is a value of the expected type seen on a screen the todo observed.
package postcond
