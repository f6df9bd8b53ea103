package neardup_test

import (
	"fmt"
	"strings"

	"github.com/trawler/trawler/crawl/neardup"
)

func Example() {
	paragraph := func(topic string) string {
		return "The " + topic + " story was reported on Monday by the " + topic + " desk of the Harbour News, which covers the " + topic + " every week."
	}
	// Twenty paragraphs; a copy with one of them rewritten; another page.
	var base []string
	for _, t := range strings.Fields(`tides ferry market school bridge storm festival museum council
		garden harbour library station quay crane dock island river road season`) {
		base = append(base, paragraph(t))
	}
	edited := append([]string(nil), base...)
	edited[4] = "Nothing happened on the bridge this week, and nobody wrote about it."
	other := []string{paragraph("weather"), paragraph("football"), paragraph("election")}

	c := neardup.DefaultConfig()
	x := neardup.NewIndex(c)
	for id, text := range []string{strings.Join(base, " "), strings.Join(other, " "), strings.Join(edited, " ")} {
		m, ok := x.Add(uint64(id+1), c.Sketch(text))
		fmt.Printf("page %d: match %v, page %d, similarity %.2f, group %d\n", id+1, ok, m.ID, m.Similarity, m.Group)
	}
	// Output:
	// page 1: match false, page 0, similarity 0.00, group 1
	// page 2: match false, page 0, similarity 0.00, group 2
	// page 3: match true, page 1, similarity 0.94, group 1
}

func ExampleConfig_DetectionProbability() {
	c := neardup.DefaultConfig()
	for _, s := range []float64{0.5, 0.8, 0.9, 0.95} {
		fmt.Printf("similarity %.2f: compared with probability %.4f\n", s, c.DetectionProbability(s))
	}
	// Output:
	// similarity 0.50: compared with probability 0.0014
	// similarity 0.80: compared with probability 0.5219
	// similarity 0.90: compared with probability 0.9934
	// similarity 0.95: compared with probability 1.0000
}
