import { Column, Entity, PrimaryColumn } from 'typeorm';

export type Plan = 'free' | 'builder' | 'pro' | 'enterprise';

/** A customer account; owned by the api app. */
@Entity({ name: 'accounts' })
export class AccountEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  plan!: Plan;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
