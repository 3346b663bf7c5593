// Package activities holds everything phoneflow's workflows do outside
// deterministic code: planner and executor model calls, observing and
// driving phones, the blob store and prompt memory. Activities are methods
// on Activities, which holds their dependencies behind small interfaces;
// their inputs and results are small plain structs so a goal's history
// never carries images, UI trees or whole model transcripts.
package activities
