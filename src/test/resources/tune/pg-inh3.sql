-- PostgreSQL database dump
CREATE TABLE public.m (
    id bigint NOT NULL,
    code character varying(200),
    price numeric(12,4)
);
CREATE TABLE public.m_2020 (
    extra integer
)
INHERITS (public.m);
INSERT INTO public.m VALUES (1,'abc',1.5),(2,'abd',2.25),(3,'abe',3.12),(4,'abf',4),(5,'abg',5),(6,'abh',6),(7,'abi',7),(8,'abj',8);
INSERT INTO public.m_2020 (id, code, price, extra) VALUES (9,'abcdefghijklmnopqrstuvwxyz',1.23456789,1),(10,'x',7.777,1);
