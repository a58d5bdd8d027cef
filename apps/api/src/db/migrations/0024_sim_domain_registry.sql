CREATE TABLE "sim_domain_registry" (
	"domain" text PRIMARY KEY NOT NULL,
	"ours" boolean NOT NULL,
	"status" text NOT NULL,
	"auth_code" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"nameservers" jsonb NOT NULL,
	"transfer_lock" boolean DEFAULT false NOT NULL,
	"contact_id" text,
	"pending_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sim_registrar_contacts" (
	"id" serial PRIMARY KEY NOT NULL,
	"contact" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
