import { Module } from '@nestjs/common';
import { SettlementsModule } from '@gateway/domain/settlements';
import { SettlementsController } from './settlements.controller';

@Module({ imports: [SettlementsModule], controllers: [SettlementsController] })
export class SettlementsApiModule {}
