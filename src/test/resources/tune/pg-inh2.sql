-- PostgreSQL database dump
CREATE TABLE public.m (
    id integer NOT NULL,
    n integer
);
CREATE TABLE public.m_2020 (
    extra integer
)
INHERITS (public.m);
INSERT INTO public.m VALUES (1,1),(2,2),(3,3),(4,4),(5,5),(6,6),(7,7),(8,8);
INSERT INTO public.m_2020 (id, n, extra) VALUES (9,2000000000,1),(10,2000000000,1);
