// Package dialect picks the executor protocol's request layout and answer
// reader (docs/models.md), and names the family an answer is written in
// when the configured protocol cannot read it.
package dialect
