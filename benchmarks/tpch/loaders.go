package tpch

import (
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/pingcap/go-tpc/tpch/dbgen"

	"gq/errs"
)

// loader is a dbgen.Loader writing one generated item (which may carry
// rows of two tables: an order with its lines, a part with its suppliers)
// to Parquet tables.
type loader struct {
	ws   []*tableWriter
	load func(ws []*tableWriter, item any)
}

// newLoader opens one table writer per (name, schema) pair in tables,
// writing table NAME as place(NAME)'s dir/base.parquet.
func newLoader(place func(name string) (dir, base string), load func([]*tableWriter, any), tables ...any) (*loader, error) {
	l := &loader{load: load}
	for i := 0; i < len(tables); i += 2 {
		dir, base := place(tables[i].(string))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			l.close(false)
			return nil, errs.Wrap(errs.IO, err, "tpch: create %s", dir)
		}
		w, err := newTableWriter(dir, base, tables[i+1].(*arrow.Schema))
		if err != nil {
			l.close(false)
			return nil, err
		}
		l.ws = append(l.ws, w)
	}
	return l, nil
}

func (l *loader) Load(item any) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errs.New(errs.Internal, "tpch: unexpected dbgen item %T: %v", item, r)
		}
	}()
	l.load(l.ws, item)
	return nil
}

func (l *loader) Flush() error { return nil }

func (l *loader) close(ok bool) error {
	var first error
	for _, w := range l.ws {
		if err := w.close(ok); first == nil {
			first = err
		}
	}
	return first
}

func regionLoad(ws []*tableWriter, item any) {
	r, w := item.(*dbgen.Region), ws[0]
	w.int(0, int64(r.Code))
	w.str(1, r.Text)
	w.str(2, r.Comment)
	w.endRow()
}

func nationLoad(ws []*tableWriter, item any) {
	n, w := item.(*dbgen.Nation), ws[0]
	w.int(0, int64(n.Code))
	w.str(1, n.Text)
	w.int(2, int64(n.Join))
	w.str(3, n.Comment)
	w.endRow()
}

func supplierLoad(ws []*tableWriter, item any) {
	s, w := item.(*dbgen.Supp), ws[0]
	w.int(0, int64(s.SuppKey))
	w.str(1, s.Name)
	w.str(2, s.Address)
	w.int(3, int64(s.NationCode))
	w.str(4, s.Phone)
	w.money(5, int64(s.Acctbal))
	w.str(6, s.Comment)
	w.endRow()
}

func customerLoad(ws []*tableWriter, item any) {
	c, w := item.(*dbgen.Cust), ws[0]
	w.int(0, int64(c.CustKey))
	w.str(1, c.Name)
	w.str(2, c.Address)
	w.int(3, int64(c.NationCode))
	w.str(4, c.Phone)
	w.money(5, int64(c.Acctbal))
	w.str(6, c.MktSegment)
	w.str(7, c.Comment)
	w.endRow()
}

func partLoad(ws []*tableWriter, item any) {
	p, w := item.(*dbgen.Part), ws[0]
	w.int(0, int64(p.PartKey))
	w.str(1, p.Name)
	w.str(2, p.Mfgr)
	w.str(3, p.Brand)
	w.str(4, p.Type)
	w.int(5, int64(p.Size))
	w.str(6, p.Container)
	w.money(7, int64(p.RetailPrice))
	w.str(8, p.Comment)
	w.endRow()
	w = ws[1]
	for i := range p.S {
		s := &p.S[i]
		w.int(0, int64(s.PartKey))
		w.int(1, int64(s.SuppKey))
		w.int(2, int64(s.Qty))
		w.money(3, int64(s.SCost))
		w.str(4, s.Comment)
		w.endRow()
	}
}

func orderLoad(ws []*tableWriter, item any) {
	o, w := item.(*dbgen.Order), ws[0]
	w.int(0, int64(o.OKey))
	w.int(1, int64(o.CustKey))
	w.str(2, o.Status)
	w.money(3, int64(o.TotalPrice))
	w.date(4, o.Date)
	w.str(5, o.OrderPriority)
	w.str(6, o.Clerk)
	w.int(7, o.ShipPriority)
	w.str(8, o.Comment)
	w.endRow()
	w = ws[1]
	for i := range o.Lines {
		l := &o.Lines[i]
		w.int(0, int64(l.OKey))
		w.int(1, int64(l.PartKey))
		w.int(2, int64(l.SuppKey))
		w.int(3, int64(l.LCnt))
		w.money(4, int64(l.Quantity)*100) // dbgen counts whole units
		w.money(5, int64(l.EPrice))
		w.money(6, int64(l.Discount)) // percent = hundredths
		w.money(7, int64(l.Tax))
		w.str(8, l.RFlag)
		w.str(9, l.LStatus)
		w.date(10, l.SDate)
		w.date(11, l.CDate)
		w.date(12, l.RDate)
		w.str(13, l.ShipInstruct)
		w.str(14, l.ShipMode)
		w.str(15, l.Comment)
		w.endRow()
	}
}
