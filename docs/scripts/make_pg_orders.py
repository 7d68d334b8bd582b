#!/usr/bin/env python3
"""A plain pg_dump of one orders table, for tune's PostgreSQL figures (docs/benchmarks.md).

usage: make_pg_orders.py ROWS OUT.sql
"""
import random
import sys

rows, out = int(sys.argv[1]), sys.argv[2]
random.seed(7)
statuses = ['new', 'paid', 'sent', 'back']
with open(out, 'w') as f:
    f.write("--\n-- PostgreSQL database dump\n--\nSET statement_timeout = 0;\n"
            "CREATE TABLE public.orders (\n    order_id integer NOT NULL,\n    customer_id integer NOT NULL,\n"
            "    quantity integer NOT NULL,\n    status text NOT NULL,\n    placed text NOT NULL,\n"
            "    amount numeric(12,2) NOT NULL,\n    note text\n);\n"
            "COPY public.orders (order_id, customer_id, quantity, status, placed, amount, note) FROM stdin;\n")
    for i in range(1, rows + 1):
        note = '\\N' if i % 3 else 'note %d' % i
        f.write("%d\t%d\t%d\t%s\t2020-%02d-%02d %02d:%02d:%02d\t%d.%02d\t%s\n" % (
            i, random.randint(1, 20000), random.randint(1, 9), statuses[i % 4], 1 + i % 12, 1 + i % 28,
            i % 24, i % 60, (i * 7) % 60, random.randint(0, 9999), random.randint(0, 99), note))
    f.write("\\.\n\nALTER TABLE ONLY public.orders ADD CONSTRAINT orders_pkey PRIMARY KEY (order_id);\n")
