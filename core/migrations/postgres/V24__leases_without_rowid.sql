-- capabot schema for PostgreSQL, version 24: nothing changes here (../0024_leases_without_rowid.sql).
--
-- SQLite's migration 24 keeps the delivery leases in their primary key's b-tree alone; a
-- PostgreSQL table has no hidden row id to drop, so this side only keeps the two backends'
-- migrations numbered alike.
SELECT 1;
